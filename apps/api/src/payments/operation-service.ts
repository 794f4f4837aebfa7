import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ContractError, isFollowUp, totalCentavos } from '@tps/domain';
import type { AuthorizationResponse, TransactionEvent } from '@tps/contracts';
import { MAX_TOTAL_CENTAVOS } from '@tps/contracts';
import type { OperationOrder, OperationReply, OriginalCard, TransactionOutcome } from '@tps/link';
import { MerchantClock } from '../clock/merchant-clock';
import { ApiConfig } from '../config/api-config';
import { TerminalLinks } from '../link/terminal-links';
import { TerminalResolver } from '../terminals/terminal-resolver';
import { EventIngest } from '../transactions/event-ingest';
import { TransactionEntity } from '../transactions/transaction.entity';
import type { TerminalEntity } from '../terminals/terminal.entity';
import { TransactionRepository } from '../transactions/transaction.repository';
import { FollowUpPlanner, type FollowUpPlan } from './follow-up-planner';
import { KeyedLock } from './keyed-lock';
import type { OperationRequest } from './operation-request';

/** Contract §4: a total of zero or above the maximum is PAR-003. */
function checkTotal(total: number, param: string): void {
  if (total <= 0 || total > MAX_TOTAL_CENTAVOS) {
    throw new ContractError(
      'PAR-003',
      `${param} must be above 0 and at most ${MAX_TOTAL_CENTAVOS} centavos`,
      param,
    );
  }
}

function checkAmounts(request: OperationRequest): void {
  // An abort carries no amount (its events show zeros, contract §3).
  if (request.type === 'abort') return;
  if (request.amount !== undefined) checkTotal(totalCentavos(request.amount), 'amount');
  else if (!isFollowUp(request.type)) throw new ContractError('PAR-002', 'amount is required', 'amount');
  if (request.type === 'pos_tip') checkTotal(request.tip ?? 0, 'tip');
}

/** A recorded request, with the card of the transaction a follow-up acts on. */
interface Recorded {
  transaction: TransactionEntity;
  original?: OriginalCard;
}

/** A sync answer: the acquirer's Authorization response, or the terminal's refusal (contract §3). */
function syncAnswer(outcome: TransactionOutcome): AuthorizationResponse {
  if (outcome.kind === 'acquirer') return outcome.response;
  throw new ContractError(outcome.error.code, outcome.error.message, outcome.error.param);
}

/**
 * Runs payment operations on terminals: the one use case behind every route, Local and Cloud,
 * sync and async. Idempotent per merchant by client_transaction_id (contract §5).
 */
@Injectable()
export class OperationService {
  /** Requests being run right now, so that a concurrent repeat waits for the first answer. */
  private readonly inFlight = new Map<string, Promise<void>>();
  /** Follow-ups of one merchant are checked and recorded one at a time, so two cannot both pass. */
  private readonly followUps = new KeyedLock();

  constructor(
    private readonly config: ApiConfig,
    private readonly clock: MerchantClock,
    private readonly resolver: TerminalResolver,
    private readonly links: TerminalLinks,
    private readonly transactions: TransactionRepository,
    private readonly ingest: EventIngest,
    private readonly planner: FollowUpPlanner,
  ) {}

  /** Answers the TERMINAL_ACKNOWLEDGED event; later events go to the webhook. */
  startAsync(request: OperationRequest): Promise<TransactionEvent> {
    return this.execute(request, {
      first: async (_transaction, reply) => reply.acknowledgement,
      repeat: (existing) => {
        if (existing.acknowledgement === null) {
          throw new ContractError(
            'TER-002',
            'the first request with this client_transaction_id has no answer yet',
          );
        }
        return existing.acknowledgement;
      },
    });
  }

  /** Waits for the end of the transaction and answers the Authorization response. */
  runSync(request: OperationRequest): Promise<AuthorizationResponse> {
    return this.execute(request, {
      first: async (transaction, reply) => {
        if (reply.outcome === undefined)
          throw new Error('the terminal answered a sync operation without its outcome');
        // Stored before answering, so that a follow-up sent right after finds the business state.
        await this.transactions.settle(transaction.id, reply.outcome);
        return syncAnswer(reply.outcome);
      },
      repeat: (existing) => {
        if (existing.outcome === null) {
          throw new ContractError(
            'TER-002',
            'the first request with this client_transaction_id has not finished',
          );
        }
        return syncAnswer(existing.outcome);
      },
    });
  }

  private async execute<T>(
    request: OperationRequest,
    answer: {
      first: (transaction: TransactionEntity, reply: OperationReply) => Promise<T>;
      repeat: (existing: TransactionEntity) => T;
    },
  ): Promise<T> {
    checkAmounts(request);
    const terminal = await this.resolver.resolve(request.merchant, request.serial);
    const key = `${request.merchant.merchantId}:${request.clientTransactionId}`;
    for (;;) {
      const running = this.inFlight.get(key);
      if (running !== undefined) {
        await running;
        continue;
      }
      const existing = await this.transactions.findByClientId(
        request.merchant.merchantId,
        request.clientTransactionId,
      );
      if (existing !== null) {
        if (existing.fingerprint !== request.fingerprint) {
          throw new ContractError(
            'TRX-001',
            `client_transaction_id ${request.clientTransactionId} was already used for another request`,
            'client_transaction_id',
          );
        }
        return answer.repeat(existing);
      }
      // Claimed by a twin while this one looked: wait for it instead.
      if (this.inFlight.has(key)) continue;
      let done!: () => void;
      this.inFlight.set(key, new Promise<void>((resolve) => (done = resolve)));
      try {
        const recorded = await this.record(request, terminal);
        // null: another process of the service recorded the same id first; answer as its repeat.
        if (recorded === null) continue;
        const reply = await this.handToTerminal(recorded, terminal, request);
        return await answer.first(recorded.transaction, reply);
      } finally {
        this.inFlight.delete(key);
        done();
      }
    }
  }

  /** Checks a follow-up against the business state and records the request, atomically. */
  private async record(request: OperationRequest, terminal: TerminalEntity): Promise<Recorded | null> {
    const type = request.type;
    if (!isFollowUp(type)) {
      const transaction = this.newTransaction(request, terminal.serialNumber, undefined);
      return (await this.transactions.insert(transaction)) ? { transaction } : null;
    }
    return this.followUps.run(request.merchant.merchantId, async () => {
      const plan = await this.planner.plan({
        merchant: request.merchant,
        type,
        transactionReference: request.transactionReference ?? '',
        amount: request.amount,
        tip: request.tip,
      });
      const transaction = this.newTransaction(request, terminal.serialNumber, plan);
      return (await this.transactions.insert(transaction)) ? { transaction, original: plan.original } : null;
    });
  }

  private async handToTerminal(
    { transaction, original }: Recorded,
    terminal: TerminalEntity,
    request: OperationRequest,
  ): Promise<OperationReply> {
    const order: OperationOrder = {
      type: request.type,
      mode: request.mode,
      merchantId: request.merchant.merchantId,
      clientTransactionId: request.clientTransactionId,
      amount: transaction.amount,
      tip: request.tip,
      metadata: request.metadata,
      eventsWebhookUrl: request.eventsWebhookUrl,
      transactionReference: request.transactionReference,
      original,
      targetClientTransactionId: request.targetClientTransactionId,
      clockOffsetMs: this.clock.offsetMs(request.merchant),
    };
    let reply: OperationReply;
    try {
      reply = await this.links.send<OperationReply>(
        terminal,
        request.form,
        { type: 'operation', order },
        this.config.TERMINAL_REPLY_TIMEOUT_MS,
      );
    } catch (error) {
      await this.transactions.remove(transaction.id);
      throw error;
    }
    await this.ingest.ingest(terminal.serialNumber, { event: reply.acknowledgement });
    return reply;
  }

  private newTransaction(
    request: OperationRequest,
    terminalSerial: string,
    plan: FollowUpPlan | undefined,
  ): TransactionEntity {
    const now = this.clock.now(request.merchant);
    return Object.assign(new TransactionEntity(), {
      id: randomUUID(),
      merchantId: request.merchant.merchantId,
      clientTransactionId: request.clientTransactionId,
      fingerprint: request.fingerprint,
      operationType: request.type,
      mode: request.mode,
      form: request.form,
      terminalSerial,
      status: null,
      amount: plan?.amount ?? request.amount,
      tip: request.tip ?? 0,
      metadata: request.metadata,
      eventsWebhookUrl: request.eventsWebhookUrl,
      transactionReference: null,
      targetReference: plan?.targetReference ?? null,
      acknowledgement: null,
      outcome: null,
      businessState: null,
      businessAmount: null,
      businessTip: 0,
      refundedTotal: 0,
      cardType: null,
      approvedAtMs: null,
      validFromMs: null,
      createdAtMs: now.getTime(),
      createdAt: now,
      updatedAt: now,
    });
  }
}
