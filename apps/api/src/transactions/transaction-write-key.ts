/**
 * The SerialWriter key of a write that reads and changes one transaction only: its row, its events
 * and its deliveries. Two transactions whose parts join to the same text share a key, which only
 * keeps their writes in order.
 */
export function transactionWriteKey(merchantId: string, clientTransactionId: string): string {
  return `transaction:${merchantId}:${clientTransactionId}`;
}
