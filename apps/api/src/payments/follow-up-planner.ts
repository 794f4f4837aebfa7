import {
  ContractError,
  OperationRunningError,
  ZERO_AMOUNT,
  allowFollowUp,
  businessRecordOf,
  followUpTargetReference,
  totalCentavos,
  type AmountCentavos,
} from '@tps/domain';
import { originalCardOf } from '../transactions/original-card';
import type {
  FollowUpAsk,
  FollowUpPlan,
  FollowUpReader,
  MerchantTime,
  StoredTransaction,
} from './operation-ports';

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
      throw new OperationRunningError('transaction_reference');
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
  ): Promise<StoredTransaction> {
    const named = await reader.findByReference(merchantId, reference);
    const actedOn = followUpTargetReference(named, reference);
    const target = actedOn === reference ? named : await reader.findByReference(merchantId, actedOn);
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
