import { Module } from '@nestjs/common';
import { MerchantClock } from '../clock/merchant-clock';
import { TransactionsModule } from '../transactions/transactions.module';
import { OnlineSearch } from './online-search';
import { SearchController } from './search.controller';

@Module({
  imports: [TransactionsModule],
  controllers: [SearchController],
  providers: [OnlineSearch, MerchantClock],
})
export class SearchModule {}
