import { Module } from '@nestjs/common';
import { PaymentsModule } from '../payments/payments.module';
import { AbortController } from './abort.controller';
import { AbortService } from './abort-service';

@Module({
  imports: [PaymentsModule],
  controllers: [AbortController],
  providers: [AbortService],
})
export class AbortModule {}
