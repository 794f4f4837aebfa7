/** Frontend messages counted by their type byte ('Q', 'P', 'B', 'E', 'S', …). */
export type MessageCounts = Record<string, number>;

/** The untyped requests a client may send before its startup message: after these, another untyped one follows. */
const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;

/**
 * Counts the messages a PostgreSQL client sends (frontend protocol v3), fed the bytes as they
 * pass in any chunking. The first message (startup, or an SSL/GSS request before it) has no type
 * byte; every later one is a type byte and a length that counts itself but not the type.
 */
export class FrontendMessageCounter {
  readonly counts: MessageCounts = {};
  private pending: Buffer = Buffer.alloc(0);
  private untyped = true;

  feed(chunk: Buffer): void {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    for (;;) {
      const header = this.untyped ? 4 : 5;
      if (this.pending.length < header) return;
      const length = this.untyped ? this.pending.readInt32BE(0) : this.pending.readInt32BE(1);
      const size = this.untyped ? length : length + 1;
      if (this.pending.length < size) return;
      if (this.untyped) {
        const code = length >= 8 ? this.pending.readInt32BE(4) : 0;
        this.untyped = code === SSL_REQUEST || code === GSSENC_REQUEST;
      } else {
        const type = String.fromCharCode(this.pending[0]);
        this.counts[type] = (this.counts[type] ?? 0) + 1;
      }
      this.pending = this.pending.subarray(size);
    }
  }
}

/** Statements run and round trips waited for, from frontend message counts. */
export interface StatementCounts {
  /** Simple queries and extended-protocol executes. */
  statements: number;
  /** Simple queries and syncs: each waits for the server's ReadyForQuery. */
  roundTrips: number;
  messages: MessageCounts;
}

export function statementCounts(messages: MessageCounts): StatementCounts {
  const n = (type: string): number => messages[type] ?? 0;
  return { statements: n('Q') + n('E'), roundTrips: n('Q') + n('S'), messages: { ...messages } };
}

/** What was sent between two readings of the same counts. */
export function countsSince(before: MessageCounts, after: MessageCounts): MessageCounts {
  const since: MessageCounts = {};
  for (const [type, n] of Object.entries(after)) since[type] = n - (before[type] ?? 0);
  return since;
}
