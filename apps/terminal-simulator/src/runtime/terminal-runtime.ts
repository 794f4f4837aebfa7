import { Tracing } from '@tps/observability';
import { ContractError, isFinalStatus, type ErrorBody, type ReadingType } from '@tps/domain';
import type {
  AbortReply,
  CardAction,
  CardReply,
  LinkEvent,
  OperationOrder,
  OperationReply,
  TerminalProfile,
  TransactionOutcome,
} from '@tps/link';
import { authorize } from '../acquirer/acquirer';
import { TEST_CARDS } from '../acquirer/test-cards';
import { Interrupts, type Wake } from './interrupts';
import { ordinaryWaitMs, type OrdinaryWait } from './pace';
import { TransactionAlreadyStoredError, transactionKey, type RuntimeStore } from './runtime-store';
import { RunningTransaction } from './running-transaction';
import { scenarioFor, type Scenario, type ScenarioStep, type TerminalRejection } from './scenarios';
import { sleep, type Timers } from './timers';

export interface RuntimeLink {
  /** New events (these ids) of this transaction are in the store: send what the service has not acknowledged. */
  flush(transactionKey: string, eventIds: string[]): void;
  /** Whether the terminal's uplink to the service is open. */
  readonly isUp: boolean;
}

export interface RuntimeOptions {
  timers: Timers;
  /** Test-only knob (SCENARIO_WAIT_SCALE): scales the scenario waits of 95 and 97; 1 otherwise. */
  scenarioWaitScale: number;
}

/** The transaction that holds the terminal, and what may interrupt it. */
interface Active {
  transaction: RunningTransaction;
  interrupts: Interrupts;
  /** Settles with the outcome once the final event is stored. */
  ended: Promise<TransactionOutcome>;
}

const ABORTED = 'aborted by the point of sale';
const CARDHOLDER_CANCELED = 'canceled by the cardholder';

function alreadyRan(): ContractError {
  return new ContractError('TRX-001', 'this terminal already ran that client_transaction_id');
}

/**
 * What an abort waiting for `order` hears when it failed: a reused id (TRX-001) ran nothing, so
 * the abort finds nothing to abort (TRX-002), as if it came after.
 */
function abortRefusal(order: OperationOrder, error: unknown): Error {
  if (error instanceof ContractError && error.code === 'TRX-001') {
    return new ContractError(
      'TRX-002',
      `transaction ${order.clientTransactionId} cannot be aborted: this terminal already ran that client_transaction_id`,
    );
  }
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * One simulated terminal: runs one operation at a time through the seven-state lifecycle, as
 * the scenario chosen by its amount says (contract §10); an abort may come in while it runs.
 */
export class TerminalRuntime {
  private running: Active | undefined;
  /** Set by a sandbox reset or removal: this runtime's store rows are gone, it records nothing more. */
  private retired = false;

  constructor(
    private profileValue: TerminalProfile,
    private readonly store: RuntimeStore,
    private readonly link: RuntimeLink,
    private readonly onError: (error: unknown) => void,
    private readonly options: RuntimeOptions,
  ) {}

  get profile(): TerminalProfile {
    return this.profileValue;
  }

  update(profile: TerminalProfile): void {
    this.profileValue = profile;
  }

  get busy(): boolean {
    return this.running !== undefined;
  }

  /**
   * Runs an operation. A client_transaction_id this terminal ran before is refused (TRX-001) by
   * the store's key when the acknowledgement is recorded: no read before the write.
   *
   * The acknowledgement is stored with the events after it, before the terminal first waits or
   * with the final event, so a lifecycle with no wait (pace instant) is one write. A sync
   * operation answers with its end. An async one answers with its first stored run: the
   * acknowledgement alone when the terminal then waits (a card read, a person, a slow acquirer),
   * the whole lifecycle when nothing makes it wait. With its uplink down (offline, Local form)
   * it answers with the acknowledgement alone, stored first: the events after it wait in the
   * terminal's queue for the uplink (contract §6). Nothing leaves the terminal before it is
   * stored either way.
   */
  async operate(order: OperationOrder): Promise<OperationReply> {
    if (order.type === 'abort') return this.startAbort(order);
    if (this.running !== undefined) throw await this.busyRefusal(order, this.running.transaction.order);
    const transaction = this.newTransaction(order);
    let settle!: (outcome: Promise<TransactionOutcome>) => void;
    const ended = new Promise<TransactionOutcome>((resolve) => (settle = resolve));
    // Aborts await `ended`; a failure with no abort waiting is reported through onError.
    ended.catch(() => undefined);
    const active: Active = { transaction, interrupts: new Interrupts(this.options.timers), ended };
    this.running = active;
    if (order.mode === 'async' && !this.link.isUp) {
      try {
        await transaction.acknowledge();
      } catch (error) {
        this.running = undefined;
        settle(Promise.reject(abortRefusal(order, error)));
        throw error;
      }
    } else {
      transaction.acknowledgeLater();
    }
    const done = this.run(active).finally(() => {
      if (this.running === active) this.running = undefined;
    });
    settle(done.catch((error: unknown) => Promise.reject(abortRefusal(order, error))));
    if (order.mode === 'sync') {
      await done;
      return { events: transaction.emitted };
    }
    // A failure before anything is stored is the reply (TRX-001 for a reused id); one after is reported.
    done.catch((error: unknown) => {
      if (transaction.emitted.length > 0) this.onError(error);
    });
    await Promise.race([transaction.firstRunStored, done]);
    return { events: [...transaction.emitted] };
  }

  /**
   * Why a terminal busy with `running` refuses `order`: TRX-001 if it ran that id already (the one
   * running, or one before, read from the store on this refusal only), else TER-003.
   */
  private async busyRefusal(order: OperationOrder, running: OperationOrder): Promise<ContractError> {
    const key = transactionKey(order.merchantId, order.clientTransactionId);
    if (
      key === transactionKey(running.merchantId, running.clientTransactionId) ||
      (await this.store.findTransaction(key)) !== null
    ) {
      return alreadyRan();
    }
    return new ContractError(
      'TER-003',
      `terminal ${this.profile.serialNumber} is busy with another operation`,
    );
  }

  /**
   * Cancels the running transaction (the named one, or whatever runs) if it is not yet past
   * APPROVAL_REQUESTED; answers once its TERMINAL_CANCELED is stored.
   */
  async abort(merchantId: string, target: string | undefined): Promise<AbortReply> {
    const active = this.running;
    const order = active?.transaction.order;
    if (
      active === undefined ||
      order === undefined ||
      order.merchantId !== merchantId ||
      (target !== undefined && target !== order.clientTransactionId) ||
      !active.interrupts.requestAbort()
    ) {
      throw new ContractError(
        'TRX-002',
        target === undefined
          ? 'nothing on this terminal can be aborted: no operation runs, or it is past APPROVAL_REQUESTED'
          : `transaction ${target} cannot be aborted: it does not run on this terminal, or it is past APPROVAL_REQUESTED`,
      );
    }
    await active.ended;
    return {
      answer: { client_transaction_id: order.clientTransactionId, status: 'TERMINAL_CANCELED' },
      events: active.transaction.emitted,
    };
  }

  /**
   * Takes the terminal out of service (sandbox reset or removal): what runs is asked to cancel so
   * that its waits end now, and nothing it does from here on reaches the store or the service.
   */
  retire(): void {
    this.retired = true;
    this.running?.interrupts.requestAbort();
  }

  /** The cardholder at the screen (sandbox card control); TRX-006 when nothing waits for a card. */
  card(action: CardAction): CardReply {
    const active = this.running;
    if (active === undefined || !active.interrupts.card(action)) {
      throw new ContractError('TRX-006', `nothing on terminal ${this.profile.serialNumber} waits for a card`);
    }
    return { client_transaction_id: active.transaction.order.clientTransactionId, action: action.action };
  }

  /** Closes what a crash left open, as far as the lifecycle allows, so both stores agree. */
  async recover(): Promise<void> {
    for (const open of await this.store.unfinished(this.profile.serialNumber)) {
      const last = await this.store.lastEvent(open.key);
      if (last === null) continue;
      await this.closeAfterRestart(this.newTransaction(open.order, last.envelope));
    }
  }

  private newTransaction(received: OperationOrder, resumeFrom?: LinkEvent['event']): RunningTransaction {
    // The terminal's run of the operation is a span of the request's trace; the order it stores
    // names that span, so events read back from the store continue it too (contract, "Traces").
    const tracing = Tracing.get();
    const span = tracing.startSpan(`terminal ${received.type}`, {
      parent: received.traceparent,
      attributes: { 'tps.terminal_serial': this.profile.serialNumber, 'tps.operation': received.type },
    });
    const order: OperationOrder = { ...received, traceparent: tracing.traceparentOf(span) };
    return new RunningTransaction(
      order,
      span,
      () => this.profile,
      (links) => this.record(order, links),
      resumeFrom,
    );
  }

  private async closeAfterRestart(transaction: RunningTransaction): Promise<void> {
    const message = 'the terminal restarted during the transaction';
    switch (transaction.status) {
      case 'TERMINAL_ACKNOWLEDGED': {
        const error: ErrorBody =
          transaction.order.type === 'abort'
            ? { type: 'TRANSACTION', code: 'TRX-002', message }
            : { type: 'TERMINAL', code: 'TER-101', message };
        await transaction.finish('TERMINAL_REJECTED', { kind: 'terminal', error }, error);
        return;
      }
      case 'CARD_PRESENTED': {
        const error: ErrorBody = { type: 'TERMINAL', code: 'TER-104', message };
        await transaction.finish('TERMINAL_CANCELED', { kind: 'terminal', error });
        return;
      }
      case 'APPROVAL_REQUESTED': {
        const scenario = scenarioFor(transaction.order);
        const ask = scenario.steps.find((step) => step.step === 'ask_acquirer');
        await this.askAcquirer(transaction, scenario, ask?.responseCode ?? '00');
        return;
      }
      case null:
      case 'TERMINAL_CANCELED':
      case 'TERMINAL_REJECTED':
      case 'DECLINED':
      case 'APPROVAL':
        return;
      default: {
        const unknownStatus: never = transaction.status;
        throw new Error(`unknown status ${String(unknownStatus)}`);
      }
    }
  }

  private async run(active: Active): Promise<TransactionOutcome> {
    const scenario = scenarioFor(active.transaction.order, this.profile.cardholder);
    for (const step of scenario.steps) {
      const ending = await this.runStep(active, scenario, step);
      if (ending !== undefined) return ending;
    }
    throw new Error(`scenario ${scenario.name} ended without a final event`);
  }

  /** One step; answers the outcome when the step ended the transaction. */
  private async runStep(
    active: Active,
    scenario: Scenario,
    step: ScenarioStep,
  ): Promise<TransactionOutcome | undefined> {
    const { transaction, interrupts } = active;
    switch (step.step) {
      case 'read_card': {
        const wake = await this.wait(active, this.ordinaryMs('card_read'), true);
        return this.presentCard(active, wake, step.readingType);
      }
      case 'wait_for_person': {
        const wake = await this.wait(active, this.scenarioMs(step.timeoutMs), true);
        if (wake.kind === 'elapsed') return this.reject(active, 'TER-101', 'nobody presented a card in time');
        return this.presentCard(active, wake, 'CHIP');
      }
      case 'reject': {
        const wake = await this.wait(active, this.ordinaryMs('card_read'), false);
        if (wake.kind === 'abort') return this.cancel(active, ABORTED);
        return this.reject(active, step.code, step.message);
      }
      case 'cardholder_cancel': {
        const wake = await this.wait(active, this.ordinaryMs('card_read'), false);
        return this.cancel(active, wake.kind === 'abort' ? ABORTED : CARDHOLDER_CANCELED);
      }
      case 'ask_acquirer': {
        if (interrupts.abortRequested) return this.cancel(active, ABORTED);
        // The point of no return: from here an abort is refused (TRX-002).
        interrupts.commit();
        transaction.approvalRequested();
        const acquirerMs = this.ordinaryMs('acquirer') + this.scenarioMs(step.extraWaitMs);
        if (acquirerMs > 0) await transaction.save();
        await sleep(this.options.timers, acquirerMs);
        return this.askAcquirer(transaction, scenario, step.responseCode);
      }
      default: {
        const unknownStep: never = step;
        throw new Error(`unknown scenario step ${JSON.stringify(unknownStep)}`);
      }
    }
  }

  private async presentCard(
    active: Active,
    wake: Wake,
    scenarioReading: ReadingType,
  ): Promise<TransactionOutcome | undefined> {
    switch (wake.kind) {
      case 'abort':
        return this.cancel(active, ABORTED);
      case 'card':
        if (wake.card.action === 'cancel') return this.cancel(active, CARDHOLDER_CANCELED);
        active.transaction.cardPresented(wake.card.readingType);
        return undefined;
      case 'elapsed':
        active.transaction.cardPresented(scenarioReading);
        return undefined;
      default: {
        const unknownWake: never = wake;
        throw new Error(`unknown wake ${JSON.stringify(unknownWake)}`);
      }
    }
  }

  private async reject(
    active: Active,
    code: TerminalRejection,
    message: string,
  ): Promise<TransactionOutcome> {
    if (active.interrupts.abortRequested) return this.cancel(active, ABORTED);
    active.interrupts.commit();
    const error: ErrorBody = { type: 'TERMINAL', code, message };
    const outcome: TransactionOutcome = { kind: 'terminal', error };
    await active.transaction.finish('TERMINAL_REJECTED', outcome, error);
    return outcome;
  }

  /** TERMINAL_CANCELED; a sync operation answers it as 409 TER-104 (contract §3). */
  private async cancel(active: Active, message: string): Promise<TransactionOutcome> {
    active.interrupts.commit();
    const outcome: TransactionOutcome = {
      kind: 'terminal',
      error: { type: 'TERMINAL', code: 'TER-104', message },
    };
    await active.transaction.finish('TERMINAL_CANCELED', outcome);
    return outcome;
  }

  private async askAcquirer(
    transaction: RunningTransaction,
    scenario: Scenario,
    responseCode: string,
  ): Promise<TransactionOutcome> {
    const response = authorize({
      order: transaction.order,
      card: TEST_CARDS[scenario.card],
      readingType: transaction.readingType ?? 'CHIP',
      responseCode,
      at: transaction.now(),
    });
    const outcome: TransactionOutcome = { kind: 'acquirer', response };
    if (response.approved) {
      await transaction.finish('APPROVAL', outcome);
    } else {
      await transaction.finish('DECLINED', outcome, {
        type: 'ACQUIRER',
        code: response.responseCode,
        message: response.message,
      });
    }
    return outcome;
  }

  /** An async abort's own lifecycle (contract §9): it runs beside the transaction it aborts. */
  private async startAbort(order: OperationOrder): Promise<OperationReply> {
    const transaction = this.newTransaction(order);
    await transaction.acknowledge();
    const done = this.runAbort(transaction);
    if (order.mode === 'async') {
      done.catch(this.onError);
      return { events: [...transaction.emitted] };
    }
    await done;
    return { events: transaction.emitted };
  }

  private async runAbort(transaction: RunningTransaction): Promise<void> {
    const { order } = transaction;
    try {
      await this.abort(order.merchantId, order.targetClientTransactionId);
    } catch (error) {
      if (!(error instanceof ContractError) || error.code !== 'TRX-002') throw error;
      const failure: ErrorBody = { type: 'TRANSACTION', code: 'TRX-002', message: error.message };
      const outcome: TransactionOutcome = { kind: 'terminal', error: failure };
      await transaction.finish('TERMINAL_REJECTED', outcome, failure);
      return;
    }
    await transaction.finish('TERMINAL_CANCELED', undefined);
  }

  /**
   * A wait of the running transaction. What it emitted is stored before a wait that takes time,
   * so that it goes up the link while the terminal waits; a wait of 0 ms (pace instant) stores
   * nothing, and the next write carries it.
   */
  private async wait(active: Active, ms: number, forCard: boolean): Promise<Wake> {
    if (ms > 0) await active.transaction.save();
    return active.interrupts.wait(ms, forCard);
  }

  private ordinaryMs(wait: OrdinaryWait): number {
    return ordinaryWaitMs(this.profile.pace, wait);
  }

  private scenarioMs(ms: number): number {
    return Math.round(ms * this.options.scenarioWaitScale);
  }

  private async record(order: OperationOrder, links: LinkEvent[]): Promise<void> {
    // Checked before the write is queued, so an erasure queued after retire() is never undone.
    if (this.retired) return;
    try {
      await this.store.record(this.profile.serialNumber, order, links);
    } catch (error) {
      // Nothing was stored: the acknowledgement is neither emitted nor flushed up the link.
      throw error instanceof TransactionAlreadyStoredError ? alreadyRan() : error;
    }
    this.link.flush(
      transactionKey(order.merchantId, order.clientTransactionId),
      links.map((link) => link.event.event_id),
    );
    const last = links[links.length - 1];
    if (isFinalStatus(last.event.status) && this.running?.transaction.order === order)
      this.running = undefined;
  }
}
