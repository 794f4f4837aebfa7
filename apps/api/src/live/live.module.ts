import { Module } from '@nestjs/common';
import { PaymentOutcomeLog } from './payment-outcome-log';

/** One log line per payment outcome, in every profile (the console's stream is sandbox only). */
@Module({
  providers: [PaymentOutcomeLog],
})
export class LiveModule {}
