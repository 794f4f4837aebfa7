/** How many transactions a merchant made, for its daily quota (contract, "Hosted mode"). */
export abstract class TransactionCounts {
  /** Its transactions dated (on its clock) from `fromMs` to before `toMs`. */
  abstract createdBetween(merchantId: string, fromMs: number, toMs: number): Promise<number>;
}
