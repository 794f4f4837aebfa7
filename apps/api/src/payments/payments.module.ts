import { Module } from '@nestjs/common';
import { MerchantClock } from '../clock/merchant-clock';
import { TransactionsModule } from '../transactions/transactions.module';
import { FollowUpPlanner } from './follow-up-planner';
import { OperationService } from './operation-service';
import { AuthorizationController, PaymentsController } from './payments.controller';

@Module({
  imports: [TransactionsModule],
  controllers: [PaymentsController, AuthorizationController],
  providers: [
    OperationService,
    MerchantClock,
    {
      provide: FollowUpPlanner,
      useFactory: (clock: MerchantClock) => new FollowUpPlanner(clock),
      inject: [MerchantClock],
    },
  ],
  exports: [OperationService],
})
export class PaymentsModule {}
