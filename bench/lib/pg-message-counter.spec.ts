import { FrontendMessageCounter, countsSince, statementCounts } from './pg-message-counter';

/** A typed frontend message: its type byte, then a length that counts itself and the body. */
function message(type: string, body = Buffer.alloc(0)): Buffer {
  const header = Buffer.alloc(5);
  header.write(type, 0, 'latin1');
  header.writeInt32BE(4 + body.length, 1);
  return Buffer.concat([header, body]);
}

function untyped(code: number, body = Buffer.alloc(0)): Buffer {
  const header = Buffer.alloc(8);
  header.writeInt32BE(8 + body.length, 0);
  header.writeInt32BE(code, 4);
  return Buffer.concat([header, body]);
}

const STARTUP = untyped(196608, Buffer.from('user\0postgres\0database\0tps\0\0', 'latin1'));
const SSL_REQUEST = untyped(80877103);
const query = (sql: string): Buffer => message('Q', Buffer.from(`${sql}\0`, 'latin1'));
/** One statement of the extended protocol, as node-postgres sends it: parse, bind, describe, execute, sync. */
const extended = (): Buffer =>
  Buffer.concat([
    message('P', Buffer.from('\0SELECT $1\0\0\0', 'latin1')),
    message('B', Buffer.from('\0\0\0\0\0\0\0\0', 'latin1')),
    message('D', Buffer.from('P\0', 'latin1')),
    message('E', Buffer.from('\0\0\0\0\0', 'latin1')),
    message('S'),
  ]);

describe('FrontendMessageCounter', () => {
  it('counts each message by type after the untyped startup message', () => {
    const counter = new FrontendMessageCounter();
    counter.feed(
      Buffer.concat([STARTUP, query('BEGIN'), extended(), extended(), query('COMMIT'), message('X')]),
    );
    expect(counter.counts).toEqual({ Q: 2, P: 2, B: 2, D: 2, E: 2, S: 2, X: 1 });
  });

  it('counts the same whatever the chunking, one byte at a time included', () => {
    const bytes = Buffer.concat([STARTUP, query('SELECT 1'), extended()]);
    const counter = new FrontendMessageCounter();
    for (let i = 0; i < bytes.length; i++) counter.feed(bytes.subarray(i, i + 1));
    expect(counter.counts).toEqual({ Q: 1, P: 1, B: 1, D: 1, E: 1, S: 1 });
  });

  it('reads the startup message that follows an SSL request as untyped too', () => {
    const counter = new FrontendMessageCounter();
    counter.feed(Buffer.concat([SSL_REQUEST, STARTUP, query('SELECT 1')]));
    expect(counter.counts).toEqual({ Q: 1 });
  });

  it('waits for the rest of a message cut in its header or its body', () => {
    const counter = new FrontendMessageCounter();
    const q = query('SELECT 1');
    counter.feed(Buffer.concat([STARTUP, q.subarray(0, 3)]));
    expect(counter.counts).toEqual({});
    counter.feed(q.subarray(3, 7));
    expect(counter.counts).toEqual({});
    counter.feed(q.subarray(7));
    expect(counter.counts).toEqual({ Q: 1 });
  });

  it('counts statements by kind: simple queries, and executes by the parse their portal was bound from', () => {
    const cstrings = (...values: string[]): Buffer =>
      Buffer.from(values.map((v) => `${v}\0`).join(''), 'utf8');
    const parse = (name: string, sql: string): Buffer =>
      message('P', Buffer.concat([cstrings(name, sql), Buffer.alloc(2)]));
    const bind = (statement: string): Buffer =>
      message('B', Buffer.concat([cstrings('', statement), Buffer.alloc(6)]));
    const execute = (): Buffer => message('E', Buffer.concat([cstrings(''), Buffer.alloc(4)]));
    const counter = new FrontendMessageCounter();
    counter.feed(
      Buffer.concat([
        STARTUP,
        query('BEGIN'),
        // A named statement, parsed once and run twice; the unnamed one, parsed before each run.
        parse('upd', 'UPDATE api_replicas SET heartbeat_at = now() WHERE id = $1'),
        bind('upd'),
        execute(),
        parse('', 'SELECT 1'),
        bind(''),
        execute(),
        bind('upd'),
        execute(),
        message('S'),
        query('COMMIT'),
      ]),
    );
    expect(counter.kinds).toEqual({ BEGIN: 1, 'UPDATE api_replicas': 2, SELECT: 1, COMMIT: 1 });
  });
});

describe('statementCounts', () => {
  it('takes statements as simple queries and executes, round trips as simple queries and syncs', () => {
    expect(statementCounts({ Q: 2, P: 3, B: 3, D: 3, E: 3, S: 3 })).toEqual({
      statements: 5,
      roundTrips: 5,
      messages: { Q: 2, P: 3, B: 3, D: 3, E: 3, S: 3 },
    });
    // Several executes before one sync: a pipeline of statements in one round trip.
    expect(statementCounts({ P: 2, B: 2, E: 2, S: 1 })).toMatchObject({ statements: 2, roundTrips: 1 });
  });
});

describe('countsSince', () => {
  it('subtracts an earlier reading, types first seen later included', () => {
    expect(countsSince({ Q: 2, S: 1 }, { Q: 5, S: 4, E: 3 })).toEqual({ Q: 3, S: 3, E: 3 });
  });
});
