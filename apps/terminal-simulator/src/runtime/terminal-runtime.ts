import { ContractError, isFinalStatus } from '@tps/domain';
import type { ErrorBody } from '@tps/domain';
import type { OperationOrder, OperationReply, TerminalProfile, TransactionOutcome } from '@tps/link';
import { authorize } from '../acquirer/acquirer';
import { TEST_CARDS } from '../acquirer/test-cards';
import { TerminalStore, transactionKey } from '../store/terminal-store';
import { ordinaryWaitMs, sleep } from './pace';
import { RunningTransaction } from './running-transaction';

export interface RuntimeLink {
  /** New events are in the store: send what the service has not acknowledged. */
  flush(): void;
}

/** One simulated terminal: runs one operation at a time through the seven-state lifecycle. */
export class TerminalRuntime {
  private running: RunningTransaction | undefined;

  constructor(
    private profileValue: TerminalProfile,
    private readonly store: TerminalStore,
    private readonly link: RuntimeLink,
    private readonly onError: (error: unknown) => void,
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

  async operate(order: OperationOrder): Promise<OperationReply> {
    const key = transactionKey(order.merchantId, order.clientTransactionId);
    const known = await this.store.findTransaction(key);
    if (known !== null)
      throw new ContractError('TRX-001', 'this terminal already ran that client_transaction_id');
    if (this.running !== undefined) {
      throw new ContractError(
        'TER-003',
        `terminal ${this.profile.serialNumber} is busy with another operation`,
      );
    }
    const transaction = new RunningTransaction(
      order,
      () => this.profile,
      (link) => this.record(order, link),
    );
    this.running = transaction;
    let acknowledgement;
    try {
      acknowledgement = await transaction.acknowledge();
    } catch (error) {
      this.running = undefined;
      throw error;
    }
    const done = this.run(transaction).finally(() => {
      if (this.running === transaction) this.running = undefined;
    });
    if (order.mode === 'async') {
      done.catch(this.onError);
      return { acknowledgement };
    }
    return { acknowledgement, outcome: await done };
  }

  /** Closes what a crash left open, as far as the lifecycle allows, so both stores agree. */
  async recover(): Promise<void> {
    for (const open of await this.store.unfinished(this.profile.serialNumber)) {
      const last = await this.store.lastEvent(open.key);
      if (last === null) continue;
      const transaction = new RunningTransaction(
        open.order,
        () => this.profile,
        (link) => this.record(open.order, link),
        last.envelope,
      );
      await this.closeAfterRestart(transaction);
    }
  }

  private async closeAfterRestart(transaction: RunningTransaction): Promise<void> {
    const message = 'the terminal restarted during the transaction';
    switch (transaction.status) {
      case 'TERMINAL_ACKNOWLEDGED': {
        const error: ErrorBody = { type: 'TERMINAL', code: 'TER-101', message };
        await transaction.finish('TERMINAL_REJECTED', { kind: 'terminal', error }, error);
        return;
      }
      case 'CARD_PRESENTED': {
        const error: ErrorBody = { type: 'TERMINAL', code: 'TER-104', message };
        await transaction.finish('TERMINAL_CANCELED', { kind: 'terminal', error });
        return;
      }
      case 'APPROVAL_REQUESTED':
        await this.askAcquirer(transaction);
        return;
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

  private async run(transaction: RunningTransaction): Promise<TransactionOutcome> {
    await sleep(ordinaryWaitMs(this.profile.pace, 'card_read'));
    await transaction.cardPresented(transaction.order.original?.readingType ?? 'CHIP');
    await transaction.approvalRequested();
    await sleep(ordinaryWaitMs(this.profile.pace, 'acquirer'));
    return this.askAcquirer(transaction);
  }

  private async askAcquirer(transaction: RunningTransaction): Promise<TransactionOutcome> {
    const response = authorize({
      order: transaction.order,
      card: TEST_CARDS.credit,
      readingType: transaction.readingType ?? 'CHIP',
      responseCode: '00',
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

  private async record(order: OperationOrder, link: Parameters<TerminalStore['record']>[2]): Promise<void> {
    await this.store.record(this.profile.serialNumber, order, link);
    this.link.flush();
    if (isFinalStatus(link.event.status) && this.running?.order === order) this.running = undefined;
  }
}
