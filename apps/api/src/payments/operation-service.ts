import { Injectable } from '@nestjs/common';
import type { AuthorizationResponse, TransactionEvent } from '@tps/contracts';
import { MerchantClock } from '../clock/merchant-clock';
import { accountQuotas } from '../config/account-quotas';
import { ApiConfig } from '../config/api-config';
import { TerminalLinks } from '../link/terminal-links';
import type { TerminalEntity } from '../terminals/terminal.entity';
import { TerminalResolver } from '../terminals/terminal-resolver';
import { EventIngest } from '../transactions/event-ingest';
import { TransactionRepository } from '../transactions/transaction.repository';
import { Capacity } from '../caps/capacity';
import { DeliveryRepository } from '../webhooks/delivery.repository';
import { DailyTransactionQuota } from './daily-transaction-quota';
import { allOf, PendingDeliveriesCap } from './pending-deliveries-cap';
import { FollowUpPlanner } from './follow-up-planner';
import { REAL_TIMER } from './operation-ports';
import type { OperationRequest } from './operation-request';
import { OperationUseCase } from './operation-use-case';

/** The operation use case wired to the app's repository, links and clock. */
@Injectable()
export class OperationService {
  private readonly useCase: OperationUseCase<TerminalEntity>;

  constructor(
    config: ApiConfig,
    clock: MerchantClock,
    resolver: TerminalResolver,
    links: TerminalLinks,
    transactions: TransactionRepository,
    ingest: EventIngest,
    planner: FollowUpPlanner,
    capacity: Capacity,
    deliveries: DeliveryRepository,
  ) {
    this.useCase = new OperationUseCase<TerminalEntity>({
      quota: allOf([
        new DailyTransactionQuota(accountQuotas(config).transactionsPerDay, transactions, clock),
        new PendingDeliveriesCap(capacity.caps.pendingDeliveries, deliveries, Date.now, (merchantId) =>
          capacity.pendingDeliveriesRefused(merchantId),
        ),
      ]),
      store: {
        findByClientId: (merchantId, id) => transactions.findByClientId(merchantId, id),
        insertNew: (transaction) => transactions.insertNew(transaction),
        insertDecided: (decide) => transactions.insertDecided(decide),
        remove: (id) => transactions.remove(id),
        storeEvents: (terminal, events) => ingest.ingestAll(terminal, events),
      },
      terminals: {
        resolve: (merchant, serial) => resolver.resolve(merchant, serial),
        send: (terminal, form, request, timeoutMs) => links.send(terminal, form, request, timeoutMs),
        stored: (terminal, events) => links.stored(terminal, events),
      },
      clock,
      timer: REAL_TIMER,
      planner,
      replyTimeoutMs: config.TERMINAL_REPLY_TIMEOUT_MS,
    });
  }

  /** Answers the TERMINAL_ACKNOWLEDGED event; later events go to the webhook. */
  startAsync(request: OperationRequest): Promise<TransactionEvent> {
    return this.useCase.startAsync(request);
  }

  /** Waits for the end of the transaction and answers the Authorization response. */
  runSync(request: OperationRequest): Promise<AuthorizationResponse> {
    return this.useCase.runSync(request);
  }
}
