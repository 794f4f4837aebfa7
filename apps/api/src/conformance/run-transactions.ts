import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { TransactionEvent } from '@tps/contracts';
import { ZERO_AMOUNT, type AmountCentavos } from '@tps/domain';
import type { MerchantEntity } from '../auth/merchant.entity';
import { OperationService } from '../payments/operation-service';
import { SandboxTerminals } from '../sandbox/sandbox-terminals';
import { TransactionRepository } from '../transactions/transaction.repository';
import type { TransactionKind } from './run-ports';

/** The room of the account's own conformance terminal: found again by it on the next run. */
export const CONFORMANCE_ROOM = 'conformance-run';

/** Totals whose centavos choose the scenario (contract §10): `00` approved by CHIP, `93` two card reads. */
const AMOUNTS: Record<TransactionKind, AmountCentavos> = {
  approved: { ...ZERO_AMOUNT, iva: 1600, subtotalIva: 10_000 },
  'card-retry': { ...ZERO_AMOUNT, iva: 1600, subtotalIva: 10_093 },
};

/**
 * Real sync charges of the account on a terminal of its own (contract §17), so that a receiver's
 * transaction search finds them. Sync: they deliver no webhook of their own; the run sends their
 * stored events itself.
 */
@Injectable()
export class RunTransactions {
  constructor(
    private readonly terminals: SandboxTerminals,
    private readonly operations: OperationService,
    private readonly transactions: TransactionRepository,
  ) {}

  async make(
    merchant: MerchantEntity,
    runId: string,
    kinds: TransactionKind[],
  ): Promise<TransactionEvent[][]> {
    if (kinds.length === 0) return [];
    const serial = await this.terminalOf(merchant);
    const made: TransactionEvent[][] = [];
    for (const kind of kinds) {
      const clientTransactionId = randomUUID();
      const answer = await this.operations.runSync({
        merchant,
        form: 'cloud',
        serial,
        type: 'charge',
        mode: 'sync',
        clientTransactionId,
        amount: AMOUNTS[kind],
        metadata: { conformance_run: runId },
        eventsWebhookUrl: '',
        fingerprint: randomUUID(),
      });
      if (!answer.approved) throw new Error(`charge ${clientTransactionId} was not approved`);
      const row = await this.transactions.findByClientId(merchant.merchantId, clientTransactionId);
      if (row === null) throw new Error(`charge ${clientTransactionId} is not recorded`);
      made.push((await this.transactions.eventsOf(row.id)).map((event) => event.envelope));
    }
    return made;
  }

  /** The account's conformance terminal: instant, the scenario table in force; made on the first run. */
  private async terminalOf(merchant: MerchantEntity): Promise<string> {
    const fleet = await this.terminals.list(merchant);
    const own = fleet.find((terminal) => terminal.room === CONFORMANCE_ROOM);
    if (own === undefined) {
      // Made by the service, one per account: not held to the account's quota of terminals.
      const made = await this.terminals.create(
        merchant,
        { pace: 'instant', room: CONFORMANCE_ROOM },
        'exempt',
      );
      return made.serialNumber;
    }
    if (own.pace !== 'instant' || own.cardholder !== 'auto') {
      await this.terminals.update(
        merchant,
        own.serialNumber,
        { pace: 'instant', cardholder: 'auto' },
        'conformance run',
      );
    }
    return own.serialNumber;
  }
}
