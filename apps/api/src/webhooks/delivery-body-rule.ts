/**
 * Whether a delivery written now may leave its body to its event, stored once in
 * `transaction_events` (docs/contract.md, "Rolling deploys"): see DeliveryBodies.
 */
export interface DeliveryBodyRule {
  readonly fromEvents: boolean;
}

/** The injection token of the rule the outbox writes by. */
export const DELIVERY_BODY_RULE = Symbol('DeliveryBodyRule');
