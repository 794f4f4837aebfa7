import { afterFollowUp, isFollowUp, stateOnApproval, type BusinessRecord } from './business-state';
import type { OperationType } from './operation-types';

/** An approved operation, as its effects need it; amounts in centavos. */
export interface ApprovedOperation {
  type: OperationType;
  /** The total of the operation's own amount. */
  total: number;
  /** A pos_tip's tip; 0 for everything else. */
  tip: number;
}

/** The acquirer's approval: card type, and when, on the merchant's clock (ms). */
export interface Approval {
  cardType: string;
  at: number;
}

/** Everything an approval changes in the business state (contract §9). */
export interface ApprovalEffects {
  /** The record the approved operation starts (a charge, an authorization, a capture), if any. */
  own: BusinessRecord | null;
  /** What changes on the transaction a follow-up acted on; null when it acts on none. */
  target: Partial<BusinessRecord> | null;
}

/**
 * The one place that says what an approval does to money: the operation's own record, and the
 * state, tip, refunded total, authorized total or validity of the transaction it acted on.
 */
export function approvalEffects(
  operation: ApprovedOperation,
  approval: Approval,
  target: BusinessRecord | null,
): ApprovalEffects {
  const state = stateOnApproval(operation.type);
  const own: BusinessRecord | null =
    state === null
      ? null
      : {
          state,
          total: operation.total,
          tip: 0,
          refunded: 0,
          cardType: approval.cardType,
          approvedAt: approval.at,
          validFrom: approval.at,
        };
  if (!isFollowUp(operation.type) || target === null) return { own, target: null };
  const moved = operation.type === 'pos_tip' ? operation.tip : operation.total;
  return { own, target: afterFollowUp(target, operation.type, moved, approval.at) };
}
