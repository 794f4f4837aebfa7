import { Module } from '@nestjs/common';
import { MerchantClock } from '../clock/merchant-clock';
import { TransactionsModule } from '../transactions/transactions.module';
import { OnlineSearch } from './online-search';
import { SearchCalls } from './search-calls';
import { SearchController } from './search.controller';

@Module({
  imports: [TransactionsModule],
  controllers: [SearchController],
  providers: [OnlineSearch, MerchantClock, SearchCalls],
  exports: [SearchCalls],
})
export class SearchModule {}
