import {
  ContractError,
  ZERO_AMOUNT,
  allowFollowUp,
  referenceStandsForTarget,
  totalCentavos,
  type AmountCentavos,
  type FollowUpType,
} from '@tps/domain';
import type { OriginalCard } from '@tps/link';
import type { MerchantEntity } from '../auth/merchant.entity';
import type { MerchantTime } from './operation-ports';
import { businessRecordOf, originalCardOf } from '../transactions/business-record';
import type { TransactionEntity } from '../transactions/transaction.entity';
import type { FollowUpReader } from '../transactions/transaction.repository';

/** What a follow-up hands its terminal, once the rules of contract §9 allowed it. */
export interface FollowUpPlan {
  /** The operation's amount: the request's, or the one of the transaction acted on. */
  amount: AmountCentavos;
  original: OriginalCard | undefined;
  /** The reference of the charge, authorization or capture it acts on. */
  targetReference: string;
}

export interface FollowUpAsk {
  merchant: MerchantEntity;
  type: FollowUpType;
  transactionReference: string;
  amount?: AmountCentavos;
  tip?: number;
}

/**
 * Checks a follow-up against the business state of the transaction it names (contract §9).
 * Free of the framework, like the use case that calls it.
 */
export class FollowUpPlanner {
  constructor(private readonly clock: MerchantTime) {}

  /** Reads through `reader`, inside the write that records the follow-up. */
  async plan(ask: FollowUpAsk, reader: FollowUpReader): Promise<FollowUpPlan> {
    const target = await this.target(reader, ask.merchant.merchantId, ask.transactionReference);
    const record = businessRecordOf(target);
    if (record === null || target.transactionReference === null || target.businessAmount === null) {
      throw new ContractError(
        'TRX-006',
        `${ask.type} cannot act on a ${target.operationType} transaction`,
        'transaction_reference',
      );
    }
    if (await reader.hasFollowUpRunning(ask.merchant.merchantId, target.transactionReference)) {
      throw new ContractError(
        'TRX-006',
        'another operation on this transaction is still running',
        'transaction_reference',
      );
    }
    const now = this.clock.now(ask.merchant).getTime();
    const requested = ask.amount === undefined ? undefined : totalCentavos(ask.amount);
    const moved = allowFollowUp(record, { type: ask.type, amount: requested, tip: ask.tip }, now);
    return {
      amount: this.amountOf(ask, target.businessAmount, moved),
      original: originalCardOf(target),
      targetReference: target.transactionReference,
    };
  }

  private async target(
    reader: FollowUpReader,
    merchantId: string,
    reference: string,
  ): Promise<TransactionEntity> {
    const named = await reader.findByReference(merchantId, reference);
    const target =
      named !== null && referenceStandsForTarget(named.operationType) && named.targetReference !== null
        ? await reader.findByReference(merchantId, named.targetReference)
        : named;
    if (target === null) {
      throw new ContractError('NF-001', `transaction ${reference} not found`, 'transaction_reference');
    }
    return target;
  }

  /** Contract §3: the request's amount where it has one, else the amount acted on. */
  private amountOf(ask: FollowUpAsk, actedOn: AmountCentavos, moved: number): AmountCentavos {
    if (ask.amount !== undefined) return ask.amount;
    if (ask.type !== 'refund' || moved === totalCentavos(actedOn)) return actedOn;
    // A refund of "all that is left" after an earlier refund or a tip: the remainder as one line.
    return { ...ZERO_AMOUNT, extraTaxes: { ...ZERO_AMOUNT.extraTaxes }, subtotalIva: moved };
  }
}
