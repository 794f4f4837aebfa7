/**
 * The holder's end of a bare hand-off (handoff-floor.ts), in a process of its own, as the replica
 * holding a link is. Arguments: the kind, the database URL (unused by `direct`), the reply.
 * Tells its parent it is ready (with its port, for `direct`) once it listens.
 */
import { createServer } from 'node:net';
import { Client, Pool } from 'pg';
import { FLOOR_CHANNEL, answerWord, type HolderKind } from './lib/handoff-words';

const [kind, url, reply] = process.argv.slice(2) as [HolderKind, string, string];

const ready = (port?: number): void => void process.send?.({ ready: true, port });

/** Newline-ended requests in, the reply with the request's id out, on one connection. */
function holdDirect(): void {
  const server = createServer((socket) => {
    socket.setNoDelay(true);
    let pending = '';
    socket.on('data', (chunk) => {
      pending += chunk.toString('utf8');
      let end: number;
      while ((end = pending.indexOf('\n')) >= 0) {
        const { id } = JSON.parse(pending.slice(0, end)) as { id: string };
        pending = pending.slice(end + 1);
        socket.write(`${answerWord(id, reply)}\n`);
      }
    });
    socket.on('error', () => socket.destroy());
  });
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    ready(typeof address === 'object' && address !== null ? address.port : undefined);
  });
}

/**
 * `stored`: told a request's id, takes its row (one `UPDATE`), then stores the reply and sends it
 * in its word (one `UPDATE`). `words`: told the request itself, sends the reply in a word; no row.
 */
async function holdThroughPostgres(): Promise<void> {
  const pool = new Pool({ connectionString: url, max: 4 });
  const ears = new Client({ connectionString: url });
  // The parent ends this process after the run; a connection ended first fails only its queries.
  pool.on('error', () => undefined);
  ears.on('error', () => undefined);
  await ears.connect();
  await ears.query(`LISTEN ${FLOOR_CHANNEL}`);
  const answer = async (id: string): Promise<void> => {
    if (kind === 'stored') {
      await pool.query({
        name: 'take',
        text: `UPDATE routed SET state = 'taken' WHERE id = $1 AND state = 'pending' RETURNING request`,
        values: [id],
      });
      await pool.query({
        name: 'answer',
        text: `WITH answered AS (UPDATE routed SET state = 'answered', reply = $2 WHERE id = $1 RETURNING id)
          SELECT pg_notify('${FLOOR_CHANNEL}', $3) FROM answered`,
        values: [id, reply, `a${answerWord(id, reply)}`],
      });
    } else {
      await pool.query({
        name: 'answer',
        text: `SELECT pg_notify('${FLOOR_CHANNEL}', $1)`,
        values: [`a${answerWord(id, reply)}`],
      });
    }
  };
  // Each end skips the other's words by their first character, as a replica skips its own.
  ears.on('notification', ({ payload }) => {
    if (!payload?.startsWith('h')) return;
    const id = kind === 'stored' ? payload.slice(1) : (JSON.parse(payload.slice(1)) as { id: string }).id;
    // An answer that fails leaves its asker to time out, which ends the run.
    answer(id).catch(() => undefined);
  });
  ready();
}

if (kind === 'direct') holdDirect();
else void holdThroughPostgres();
