import {
  ContractError,
  OutcomeNotStoredError,
  StorageUnavailableError,
  ZERO_AMOUNT,
  afterTerminalAnswered,
  terminalTookNothing,
  isFollowUp,
  totalCentavos,
  type AmountCentavos,
} from '@tps/domain';
import type { AuthorizationResponse, TransactionEvent } from '@tps/contracts';
import { MAX_TOTAL_CENTAVOS } from '@tps/contracts';
import {
  acknowledgementOf,
  outcomeOf,
  type LinkEvent,
  type OperationOrder,
  type OperationReply,
  type TerminalRequest,
  type TransactionOutcome,
} from '@tps/link';
import { RECORDED_FROM_TERMINAL, transactionFromOrder } from '../transactions/transaction-from-order';
import type {
  FollowUpPlanning,
  MerchantTime,
  OperationPorts,
  OperationStore,
  OperationTerminal,
  StoredTransaction,
  TerminalGateway,
  Timer,
} from './operation-ports';
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

/** A repeat must be the same request as the recorded one (contract §5): else 409 TRX-001. */
function checkSameRequest(existing: StoredTransaction, request: OperationRequest): void {
  if (existing.fingerprint !== request.fingerprint && existing.fingerprint !== RECORDED_FROM_TERMINAL) {
    throw new ContractError(
      'TRX-001',
      `client_transaction_id ${request.clientTransactionId} was already used for another request`,
      'client_transaction_id',
    );
  }
}

/** A recorded request and the order that hands it to its terminal. */
interface Recorded {
  transaction: StoredTransaction;
  order: OperationOrder;
}

/** A sync answer: the acquirer's Authorization response, or the terminal's refusal (contract §3). */
function syncAnswer(outcome: TransactionOutcome): AuthorizationResponse {
  if (outcome.kind === 'acquirer') return outcome.response;
  throw new ContractError(outcome.error.code, outcome.error.message, outcome.error.param);
}

function outcomeUnknown(clientTransactionId: string): ContractError {
  return new ContractError(
    'TER-002',
    `the outcome of ${clientTransactionId} is not known yet; retry with the same client_transaction_id`,
  );
}

/** How an operation's answer is read: from the events just stored, or from the stored record. */
interface AnswerReader<T> {
  /** From the events the terminal answered with, once they are committed. */
  fromEvents: (events: LinkEvent[]) => T | undefined;
  /** From the stored record of an earlier request with the same id; undefined while not known. */
  fromStored: (existing: StoredTransaction) => T | undefined;
}

const ASYNC_ANSWER: AnswerReader<TransactionEvent> = {
  fromEvents: acknowledgementOf,
  fromStored: (existing) => existing.acknowledgement ?? undefined,
};

const SYNC_ANSWER: AnswerReader<AuthorizationResponse> = {
  fromEvents: (events) => {
    const outcome = outcomeOf(events);
    return outcome === undefined ? undefined : syncAnswer(outcome);
  },
  fromStored: (existing) => (existing.outcome === null ? undefined : syncAnswer(existing.outcome)),
};

/** How often a repeat of a request that another process runs looks for its answer. */
const REPEAT_POLL_MS = 50;

/**
 * Runs payment operations on terminals: the one use case behind every route, Local and Cloud,
 * sync and async, free of the framework (its ports are in operation-ports.ts). Idempotent per merchant by client_transaction_id (contract §5). Every answer
 * is read from what is committed: the terminal's events are stored before the caller hears them
 * (contract §13), and a request the terminal may have taken is never forgotten.
 */
export class OperationUseCase<Terminal extends OperationTerminal> {
  /** Requests being run right now, so that a concurrent repeat waits for the first answer. */
  private readonly inFlight = new Map<string, Promise<void>>();

  private readonly transactions: OperationStore<Terminal>;
  private readonly links: TerminalGateway<Terminal>;
  private readonly clock: MerchantTime;
  private readonly timer: Timer;
  private readonly planner: FollowUpPlanning;

  constructor(private readonly ports: OperationPorts<Terminal>) {
    this.transactions = ports.store;
    this.links = ports.terminals;
    this.clock = ports.clock;
    this.timer = ports.timer;
    this.planner = ports.planner;
  }

  /** Answers the TERMINAL_ACKNOWLEDGED event; later events go to the webhook. */
  startAsync(request: OperationRequest): Promise<TransactionEvent> {
    return this.execute(request, ASYNC_ANSWER);
  }

  /** Waits for the end of the transaction and answers the Authorization response. */
  runSync(request: OperationRequest): Promise<AuthorizationResponse> {
    return this.execute(request, SYNC_ANSWER);
  }

  private async execute<T>(request: OperationRequest, answer: AnswerReader<T>): Promise<T> {
    checkAmounts(request);
    const terminal = await this.links.resolve(request.merchant, request.serial);
    await this.withinQuota(request);
    const key = `${request.merchant.merchantId}:${request.clientTransactionId}`;
    for (;;) {
      const running = this.inFlight.get(key);
      if (running !== undefined) {
        await running;
        continue;
      }
      let done!: () => void;
      this.inFlight.set(key, new Promise<void>((resolve) => (done = resolve)));
      try {
        const ran = await this.runOnce(request, terminal, answer);
        if (ran.rerun !== true) return ran.value;
      } finally {
        this.inFlight.delete(key);
        done();
      }
    }
  }

  /**
   * The account's quota of transactions per day (contract, "Hosted mode"): over it, a new
   * request is refused before anything of it is recorded, so its id stays free (a retry the next
   * day runs it). A repeat of a recorded request is answered as ever: it adds no transaction. An
   * abort is never refused: it stops what runs.
   */
  private async withinQuota(request: OperationRequest): Promise<void> {
    if (request.type === 'abort') return;
    const refusal = await this.ports.quota.admit(request.merchant);
    if (refusal === undefined) return;
    // Unreadable storage refuses nothing here: the request's own write answers it (contract §19).
    const recorded = await this.transactions
      .findByClientId(request.merchant.merchantId, request.clientTransactionId)
      .catch(() => undefined);
    if (recorded === null) throw refusal;
  }

  /**
   * Records the request and hands it to the terminal; or, when its client_transaction_id is taken
   * (the unique key answers that, no read comes first), answers it as a repeat of the first.
   */
  private async runOnce<T>(
    request: OperationRequest,
    terminal: Terminal,
    answer: AnswerReader<T>,
  ): Promise<{ value: T; rerun?: false } | { rerun: true }> {
    const recorded = await this.record(request, terminal).catch((error: unknown) =>
      this.unrecorded(request, error),
    );
    // From here a request with this id is recorded and its terminal may have run it: a storage
    // failure can no longer mean "not taken" (contract §19), whatever read or write it hit.
    return this.afterRecorded(request, terminal, answer, recorded).catch((error: unknown) => {
      throw afterTerminalAnswered(request.clientTransactionId, error);
    });
  }

  private async afterRecorded<T>(
    request: OperationRequest,
    terminal: Terminal,
    answer: AnswerReader<T>,
    recorded: Recorded | null,
  ): Promise<{ value: T; rerun?: false } | { rerun: true }> {
    if (recorded === null) {
      const existing = await this.transactions.findByClientId(
        request.merchant.merchantId,
        request.clientTransactionId,
      );
      // Dropped since (its terminal never took it): this request may run now.
      if (existing === null) return { rerun: true };
      checkSameRequest(existing, request);
      return this.answerRepeat(existing, terminal, request, answer);
    }
    const events = await this.handToTerminal(recorded, terminal, request);
    await this.storeAnswered(request, terminal, events);
    this.links.stored(terminal, events);
    const value = answer.fromEvents(events);
    if (value === undefined) throw outcomeUnknown(request.clientTransactionId);
    return { value };
  }

  /**
   * The answer to a repeat, from the stored record. While another process runs the first request
   * it waits for the answer; once nobody can still be running it (older than the reply timeout),
   * it asks the terminal: its events complete the record, and if it never took the operation the
   * record is dropped and the request runs now.
   */
  private async answerRepeat<T>(
    existing: StoredTransaction,
    terminal: Terminal,
    request: OperationRequest,
    answer: AnswerReader<T>,
  ): Promise<{ value: T; rerun?: false } | { rerun: true }> {
    const timeout = this.ports.replyTimeoutMs;
    const deadline = this.timer.now() + timeout;
    let record: StoredTransaction | null = existing;
    for (;;) {
      const value = answer.fromStored(record);
      if (value !== undefined) return { value };
      if (this.timer.now() - record.createdAtMs + this.clock.offsetMs(request.merchant) >= timeout) {
        return this.reconcile(record, terminal, request, answer);
      }
      if (this.timer.now() >= deadline) throw outcomeUnknown(request.clientTransactionId);
      await this.timer.sleep(REPEAT_POLL_MS);
      record = await this.transactions.findByClientId(record.merchantId, record.clientTransactionId);
      if (record === null) return { rerun: true };
    }
  }

  private async reconcile<T>(
    record: StoredTransaction,
    terminal: Terminal,
    request: OperationRequest,
    answer: AnswerReader<T>,
  ): Promise<{ value: T } | { rerun: true }> {
    const ask: TerminalRequest = {
      type: 'events',
      merchantId: record.merchantId,
      clientTransactionId: record.clientTransactionId,
    };
    const events = await this.links
      .send<LinkEvent[]>(terminal, request.form, ask, this.ports.replyTimeoutMs)
      .catch(() => {
        throw outcomeUnknown(request.clientTransactionId);
      });
    if (events.length === 0 && record.status === null) {
      // The terminal never took it: nothing was charged, so the request may run now.
      await this.transactions.remove(record.id);
      return { rerun: true };
    }
    await this.storeAnswered(request, terminal, events);
    const stored = await this.transactions.findByClientId(record.merchantId, record.clientTransactionId);
    const value = stored === null ? undefined : answer.fromStored(stored);
    if (value === undefined) throw outcomeUnknown(request.clientTransactionId);
    return { value };
  }

  /**
   * A record that could not be written. 503 INT-002 tells the caller nothing moved (contract §19),
   * so it is answered only when a read finds no earlier request with this id; a repeat of one that
   * was (its terminal may have run it), or any request while nothing can be read, is 504 INT-003:
   * its retry answers the outcome.
   */
  private async unrecorded(request: OperationRequest, error: unknown): Promise<never> {
    if (!(error instanceof StorageUnavailableError)) throw error;
    const existing = await this.transactions
      .findByClientId(request.merchant.merchantId, request.clientTransactionId)
      .catch(() => undefined);
    // The storage cannot be read either (a database server gone): whether an earlier request with
    // this id was taken is unknown, so "not taken" cannot be said.
    if (existing === undefined) {
      throw new OutcomeNotStoredError(
        request.clientTransactionId,
        error,
        `the service can neither store nor read right now, so whether an earlier request with ${request.clientTransactionId} was taken is unknown; retry with the same client_transaction_id`,
      );
    }
    if (existing === null) throw error;
    checkSameRequest(existing, request);
    throw new OutcomeNotStoredError(
      request.clientTransactionId,
      error,
      `${request.clientTransactionId} was recorded before, and the service cannot store anything right now; retry with the same client_transaction_id`,
    );
  }

  /** Stores what the terminal answered; it has taken the operation, so a failure is INT-003. */
  private async storeAnswered(
    request: OperationRequest,
    terminal: Terminal,
    events: LinkEvent[],
  ): Promise<void> {
    try {
      await this.transactions.storeEvents(terminal, events);
    } catch (error) {
      throw afterTerminalAnswered(request.clientTransactionId, error);
    }
  }

  /** Records the request; a follow-up is checked against the business state in the same write. */
  private async record(request: OperationRequest, terminal: Terminal): Promise<Recorded | null> {
    const type = request.type;
    let order = this.orderOf(request, request.amount ?? ZERO_AMOUNT);
    if (!isFollowUp(type)) {
      const transaction = await this.transactions.insertNew(this.newRecord(order, terminal, null, request));
      return transaction === null ? null : { transaction, order };
    }
    const transaction = await this.transactions.insertDecided(async (reader) => {
      // A repeat of a follow-up is answered as one, not planned again against what it changed.
      if (await reader.isTaken(request.merchant.merchantId, request.clientTransactionId)) return null;
      const plan = await this.planner.plan(
        {
          merchant: request.merchant,
          type,
          transactionReference: request.transactionReference ?? '',
          amount: request.amount,
          tip: request.tip,
        },
        reader,
      );
      order = { ...this.orderOf(request, plan.amount), original: plan.original };
      return this.newRecord(order, terminal, plan.targetReference, request);
    });
    return transaction === null ? null : { transaction, order };
  }

  private newRecord(
    order: OperationOrder,
    terminal: Terminal,
    targetReference: string | null,
    request: OperationRequest,
  ): StoredTransaction {
    return transactionFromOrder(order, terminal.serialNumber, {
      fingerprint: request.fingerprint,
      targetReference,
      createdAt: this.clock.now(request.merchant),
    });
  }

  /**
   * Hands the order to the terminal and answers its events. A refusal by the terminal, or a link
   * that was down before sending, means it took nothing: the record is dropped, so a retry runs
   * it. A link lost after sending, or no reply in time, is "outcome unknown" (504 TER-002): the
   * record stays, and the terminal's events complete it when they come up its uplink.
   */
  private async handToTerminal(
    { transaction, order }: Recorded,
    terminal: Terminal,
    request: OperationRequest,
  ): Promise<LinkEvent[]> {
    try {
      const reply = await this.links.send<OperationReply>(
        terminal,
        request.form,
        { type: 'operation', order },
        this.ports.replyTimeoutMs,
      );
      return reply.events;
    } catch (error) {
      if (!terminalTookNothing(error)) throw outcomeUnknown(request.clientTransactionId);
      await this.transactions.remove(transaction.id);
      throw error;
    }
  }

  private orderOf(request: OperationRequest, amount: AmountCentavos): OperationOrder {
    const traceparent = request.traceparent;
    return {
      ...(traceparent === undefined ? {} : { traceparent }),
      type: request.type,
      mode: request.mode,
      form: request.form,
      merchantId: request.merchant.merchantId,
      clientTransactionId: request.clientTransactionId,
      amount,
      tip: request.tip,
      metadata: request.metadata,
      eventsWebhookUrl: request.eventsWebhookUrl,
      transactionReference: request.transactionReference,
      targetClientTransactionId: request.targetClientTransactionId,
      clockOffsetMs: this.clock.offsetMs(request.merchant),
    };
  }
}
