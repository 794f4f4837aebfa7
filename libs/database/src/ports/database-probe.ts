/** Whether the database answers (health, metrics): the caller times the round trip. */
export abstract class DatabaseProbe {
  /** Sends the database a read that needs no table; resolves once it answered, rejects if it could not. */
  abstract ping(): Promise<void>;
}
