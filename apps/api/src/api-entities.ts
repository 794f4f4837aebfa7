import { MerchantEntity } from './auth/merchant.entity';
import { PrintJobEntity } from './print-jobs/print-job.entity';
import { TerminalEntity } from './terminals/terminal.entity';
import { TransactionEventEntity } from './transactions/transaction-event.entity';
import { TransactionEntity } from './transactions/transaction.entity';
import { DeliveryAttemptEntity } from './webhooks/delivery-attempt.entity';
import { DeliveryEntity } from './webhooks/delivery.entity';

/** Every entity of the API's database, for the app and for the provisioning script. */
export const API_ENTITIES = [
  MerchantEntity,
  TerminalEntity,
  TransactionEntity,
  TransactionEventEntity,
  DeliveryEntity,
  DeliveryAttemptEntity,
  PrintJobEntity,
];
