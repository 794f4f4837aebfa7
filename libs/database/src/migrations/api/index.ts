import { InitialApiSchema1795334400000 } from './1795334400000-initial-schema';
import { WebhookDeliveries1795334500000 } from './1795334500000-webhook-deliveries';
import { BusinessState1795334600000 } from './1795334600000-business-state';
import { PrintJobs1795334800000 } from './1795334800000-print-jobs';
import { TerminalCardholder1795335160000 } from './1795335160000-terminal-cardholder';
import { TransactionCounters1795335400000 } from './1795335400000-transaction-counters';
import { CardholderSetBy1795335600000 } from './1795335600000-cardholder-set-by';
import { ReplicaRouting1795336000000 } from './1795336000000-replica-routing';
import { RateLimitCounts1795336100000 } from './1795336100000-rate-limit-counts';
import { DeliveryLeases1795336200000 } from './1795336200000-delivery-leases';
import { DestinationSlots1795336210000 } from './1795336210000-destination-slots';
import { PrintCallbackLeases1795336220000 } from './1795336220000-print-callback-leases';
import { SealedSecrets1795336500000 } from './1795336500000-sealed-secrets';
import { WebhookSecretOverlap1795336510000 } from './1795336510000-webhook-secret-overlap';
import { Retention1795336520000 } from './1795336520000-retention';
import { RoutedRequestSweep1795420000000 } from './1795420000000-routed-request-sweep';
import { MerchantRequests1795420010000 } from './1795420010000-merchant-requests';
import { ConformanceRuns1795420020000 } from './1795420020000-conformance-runs';
import { RoutedRequestsUnlogged1795460000000 } from './1795460000000-routed-requests-unlogged';
import { DeliveryBodiesFromEvents1795470000000 } from './1795470000000-delivery-bodies-from-events';
import { TransactionWriteCost1795490000000 } from './1795490000000-transaction-write-cost';
import { OutboxReadingsLease1796500000000 } from './1796500000000-outbox-readings-lease';
import { ListenerAnswers1796600000000 } from './1796600000000-listener-answers';
import { LeaseEpochs1796700000000 } from './1796700000000-lease-epochs';
import { ConformanceRunAddresses1796800000000 } from './1796800000000-conformance-run-addresses';

/** The API's migrations, oldest first. */
export const API_MIGRATIONS = [
  InitialApiSchema1795334400000,
  WebhookDeliveries1795334500000,
  BusinessState1795334600000,
  PrintJobs1795334800000,
  TerminalCardholder1795335160000,
  TransactionCounters1795335400000,
  CardholderSetBy1795335600000,
  ReplicaRouting1795336000000,
  RateLimitCounts1795336100000,
  DeliveryLeases1795336200000,
  DestinationSlots1795336210000,
  PrintCallbackLeases1795336220000,
  SealedSecrets1795336500000,
  WebhookSecretOverlap1795336510000,
  Retention1795336520000,
  RoutedRequestSweep1795420000000,
  MerchantRequests1795420010000,
  ConformanceRuns1795420020000,
  RoutedRequestsUnlogged1795460000000,
  DeliveryBodiesFromEvents1795470000000,
  TransactionWriteCost1795490000000,
  OutboxReadingsLease1796500000000,
  ListenerAnswers1796600000000,
  LeaseEpochs1796700000000,
  ConformanceRunAddresses1796800000000,
];
