import { Global, Module } from '@nestjs/common';
import { LiveFeed } from './live-feed';
import { PaymentOutcomeLog } from './payment-outcome-log';

/** The live bus of what is stored, in every profile (the console's stream is sandbox only). */
@Global()
@Module({
  providers: [LiveFeed, PaymentOutcomeLog],
  exports: [LiveFeed],
})
export class LiveModule {}
