import { statementKind } from './sql-kind';

/** Frontend messages counted by their type byte ('Q', 'P', 'B', 'E', 'S', …). */
export type MessageCounts = Record<string, number>;

/** Statements run, counted by what they do (`statementKind`: `INSERT <table>`, `SELECT`, `BEGIN`, …). */
export type KindCounts = Record<string, number>;

/** The untyped requests a client may send before its startup message: after these, another untyped one follows. */
const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;

/** The NUL-terminated strings at the start of a message body. */
function cStrings(body: Buffer, count: number): string[] {
  const strings: string[] = [];
  let start = 0;
  for (let i = 0; i < count; i++) {
    const end = body.indexOf(0, start);
    if (end < 0) break;
    strings.push(body.toString('utf8', start, end));
    start = end + 1;
  }
  return strings;
}

/**
 * Counts the messages a PostgreSQL client sends (frontend protocol v3), fed the bytes as they
 * pass in any chunking. The first message (startup, or an SSL/GSS request before it) has no type
 * byte; every later one is a type byte and a length that counts itself but not the type.
 * Each statement run (a simple query, or an execute of a bound portal) is also counted by its
 * kind, read from the SQL of the query or of the parse its portal was bound from.
 */
export class FrontendMessageCounter {
  readonly counts: MessageCounts = {};
  readonly kinds: KindCounts = {};
  private pending: Buffer = Buffer.alloc(0);
  private untyped = true;
  /** The kind of each prepared statement by name ('' is the unnamed one), and of each portal. */
  private readonly prepared = new Map<string, string>();
  private readonly portals = new Map<string, string>();

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
        this.follow(type, this.pending.subarray(5, size));
      }
      this.pending = this.pending.subarray(size);
    }
  }

  /** Keeps which statement each portal runs, and counts what simple queries and executes run. */
  private follow(type: string, body: Buffer): void {
    if (type === 'Q') this.count(statementKind(cStrings(body, 1)[0] ?? ''));
    else if (type === 'P') {
      const [name, sql] = cStrings(body, 2);
      if (name !== undefined && sql !== undefined) this.prepared.set(name, statementKind(sql));
    } else if (type === 'B') {
      const [portal, statement] = cStrings(body, 2);
      if (portal !== undefined && statement !== undefined)
        this.portals.set(portal, this.prepared.get(statement) ?? '?');
    } else if (type === 'E') this.count(this.portals.get(cStrings(body, 1)[0] ?? '') ?? '?');
  }

  private count(kind: string): void {
    this.kinds[kind] = (this.kinds[kind] ?? 0) + 1;
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
