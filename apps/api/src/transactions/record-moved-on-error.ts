/**
 * A run was decided on a row taken unread (a hint), and the store has moved on since: an event
 * or a delivery was stored for its transaction meanwhile. The run is decided again from a read.
 */
export class RecordMovedOnError extends Error {
  constructor(readonly transactionId: string) {
    super(`transaction ${transactionId} changed while its run was written`);
    this.name = 'RecordMovedOnError';
  }
}
