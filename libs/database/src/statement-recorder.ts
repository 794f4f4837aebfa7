import { AsyncLocalStorage } from 'node:async_hooks';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { createRequire, SourceMap } from 'node:module';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import sqlite3 from 'sqlite3';
import {
  DataSource,
  DeleteQueryBuilder,
  EntityManager,
  InsertQueryBuilder,
  SelectQueryBuilder,
  UpdateQueryBuilder,
} from 'typeorm';
import type { Sql } from './sql';
import type { Work } from './store-writer';

/**
 * Test-only (SQL_STATEMENTS_FILE=<path>): every statement the process sends to its store is
 * appended to that file, one JSON line `{ dialect, source, text }` for each new pair of source and
 * text, for the SQL snapshots (docs/queries/README.md). Recorded where every path ends, whichever
 * of our ways sent it (TypeORM, sqlOf, a raw pool or client): node-postgres' `query` (the copy in
 * the app's bundle, which our pools and clients use, and TypeORM's own) and node-sqlite3's
 * statements, through their public methods. Unset, nothing here runs.
 */
const FILE_VARIABLE = 'SQL_STATEMENTS_FILE';

/** The checkout: this file runs from libs/database/src (tests) or dist/libs/database/src (the apps). */
const ROOT = resolve(__dirname, '../../..').replace(/[\\/]dist$/, '');

/**
 * Our files that only pass a caller's statement on (or build it for the caller): a statement is
 * the first file's outside them that the stack names.
 */
const PASS_THROUGH = new Set([
  'libs/database/src/statement-recorder.ts',
  'libs/database/src/sql.ts',
  'libs/database/src/portable-sql.ts',
  'libs/database/src/sqlite/prepared-statements.ts',
  'libs/database/src/sqlite/sqlite-driver.ts',
  'libs/database/src/sqlite/sqlite-sql.ts',
  'libs/database/src/postgres/postgres-sql.ts',
  'libs/database/src/entity-table.ts',
]);

/**
 * The writers: a statement of a write they run is the file's that asked for the write (its stack
 * at SerialWriter#write, kept with the write: the writer runs it later, from its own loop); their
 * own BEGIN, SAVEPOINT or COMMIT is theirs.
 */
const WRITERS = new Set([
  'libs/database/src/serial-writer.ts',
  'libs/database/src/sqlite/sqlite-writer.ts',
  'libs/database/src/postgres/server-writer.ts',
]);

const UNATTRIBUTED = '(no file of ours on the stack)';

type Dialect = 'sqlite' | 'postgres';

const FRAME = /\(?((?:file:\/\/)?\/[^():]+):(\d+):(\d+)\)?$/;

const maps = new Map<string, SourceMap | undefined>();

/** A bundle's own source map (dist/apps/<app>/src/main.js.map), read once. */
function sourceMapOf(file: string): SourceMap | undefined {
  if (!maps.has(file)) {
    const mapFile = `${file}.map`;
    maps.set(
      file,
      existsSync(mapFile) ? new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8')) as never) : undefined,
    );
  }
  return maps.get(file);
}

/** The file of ours a stack frame is in (`apps/…/x.ts`), or undefined (a library, Node). */
function fileOf(frame: string): string | undefined {
  const match = FRAME.exec(frame.trim());
  if (match === null) return undefined;
  let file = match[1].startsWith('file://') ? fileURLToPath(match[1]) : match[1];
  const map = sourceMapOf(file);
  if (map !== undefined) {
    const entry = map.findEntry(Number(match[2]) - 1, Number(match[3]) - 1) as { originalSource?: string };
    if (entry.originalSource === undefined) return undefined;
    const source = entry.originalSource;
    file = source.startsWith('file://') ? fileURLToPath(source) : resolve(dirname(file), source);
  }
  const path = relative(ROOT, file)
    .replace(/^dist\//, '')
    .replace(/\.js$/, '.ts');
  return /^(apps|libs)\//.test(path) && !path.includes('node_modules/') ? path : undefined;
}

/** The first file of ours on the stack outside `skipped`. */
function firstOurs(skipped: (file: string) => boolean): string | undefined {
  return (new Error().stack ?? '')
    .split('\n')
    .slice(1)
    .map(fileOf)
    .find((file) => file !== undefined && !skipped(file));
}

/**
 * While recording: the file that asked for the write under way (SerialWriter#write), where one
 * is; the writer runs the write later, from its own loop.
 */
let writeAsker: AsyncLocalStorage<string> | undefined;
/**
 * While recording: the file of ours that called what sends the statement under way (sqlOf's Sql,
 * TypeORM's methods), taken when the call is made. A statement sent after an await in a driver
 * has lost the frame of a caller that passed the promise on without awaiting it.
 */
let caller: AsyncLocalStorage<string> | undefined;

/** The file of ours calling now, outside the pass-through helpers and the writers. */
const callerNow = (): string | undefined => firstOurs((file) => PASS_THROUGH.has(file) || WRITERS.has(file));

/** The write, remembering which file asked for it, while statements are recorded; else the write itself. */
export function attributedWork<T>(work: Work<T>): Work<T> {
  const [asks, calls] = [writeAsker, caller];
  const asker = asks === undefined ? undefined : callerNow();
  if (asks === undefined || calls === undefined || asker === undefined) return work;
  // No caller of the loop that runs it: its own calls say who called.
  return (manager) => asks.run(asker, () => calls.exit(() => work(manager)));
}

/** Runs `call` with the file of ours calling now kept as its caller (the innermost call's, if `replace`). */
function withCaller<R>(call: () => R, replace: boolean): R {
  const calls = caller;
  if (calls === undefined || (!replace && calls.getStore() !== undefined)) return call();
  const file = callerNow();
  return file === undefined ? call() : calls.run(file, call);
}

/** The manager's Sql, each call keeping its caller, while statements are recorded; else the Sql itself. */
export function attributedSql(sql: Sql): Sql {
  if (caller === undefined) return sql;
  const called =
    <A extends unknown[], R>(method: (...args: A) => R) =>
    (...args: A): R =>
      withCaller(() => method(...args), true);
  return {
    run: called(sql.run.bind(sql)),
    all: called(sql.all.bind(sql)) as Sql['all'],
    together: called(sql.together.bind(sql)),
    script: called(sql.script.bind(sql)),
  };
}

/**
 * TypeORM's methods that send statements (the ones our code calls): a call from a file of ours
 * is that file's. One that runs a callback of ours (`transaction`) is left out: what the callback
 * starts would keep its caller.
 */
const TYPEORM_SENDERS: Array<[object, readonly string[]]> = [
  [DataSource.prototype, ['query']],
  [
    EntityManager.prototype,
    [
      ...[
        'query',
        'save',
        'remove',
        'insert',
        'upsert',
        'update',
        'delete',
        'softDelete',
        'restore',
        'preload',
      ],
      ...['exists', 'existsBy', 'count', 'countBy', 'sum', 'average', 'minimum', 'maximum', 'clear'],
      ...[
        'find',
        'findBy',
        'findAndCount',
        'findAndCountBy',
        'findByIds',
        'findOne',
        'findOneBy',
        'findOneById',
      ],
      ...['findOneOrFail', 'findOneByOrFail', 'increment', 'decrement'],
    ],
  ],
  [
    SelectQueryBuilder.prototype,
    ['getRawOne', 'getRawMany', 'getRawAndEntities', 'getOne', 'getOneOrFail', 'getMany'],
  ],
  [SelectQueryBuilder.prototype, ['getCount', 'getExists', 'getManyAndCount']],
  [InsertQueryBuilder.prototype, ['execute']],
  [UpdateQueryBuilder.prototype, ['execute']],
  [DeleteQueryBuilder.prototype, ['execute']],
];

/** TypeORM calls its own methods, some after an await: the outermost call keeps its caller. */
function recordTypeormCallers(): void {
  for (const [prototype, names] of TYPEORM_SENDERS) {
    for (const name of names) {
      const target = prototype as Record<string, Method>;
      const original = target[name];
      if (typeof original !== 'function') continue;
      target[name] = function (this: unknown, ...args: unknown[]): unknown {
        return withCaller(() => original.apply(this, args), false);
      };
    }
  }
}

/**
 * A writer's own statement (BEGIN, SAVEPOINT, COMMIT: sent outside any write it runs) is the
 * writer's; any other is its caller's, else the first file of ours on the stack outside the
 * pass-through helpers, else the write's asker.
 */
function sourceOfStatement(): string {
  const stack = firstOurs((file) => PASS_THROUGH.has(file));
  const asker = writeAsker?.getStore();
  if (stack !== undefined && WRITERS.has(stack) && asker === undefined) return stack;
  return caller?.getStore() ?? (stack !== undefined && !WRITERS.has(stack) ? stack : asker) ?? UNATTRIBUTED;
}

function recorder(file: string): (dialect: Dialect, text: unknown) => void {
  const seen = new Set<string>();
  return (dialect, text) => {
    if (typeof text !== 'string') return;
    const source = sourceOfStatement();
    const key = `${dialect}\u0000${source}\u0000${text}`;
    if (seen.has(key)) return;
    seen.add(key);
    appendFileSync(file, `${JSON.stringify({ dialect, source, text })}\n`);
  };
}

type Method = (this: unknown, ...args: unknown[]) => unknown;
const patched = new WeakSet<object>();

function wrap(prototype: object, name: string, before: (self: unknown, args: unknown[]) => unknown[]): void {
  const target = prototype as Record<string, Method>;
  const original = target[name];
  target[name] = function (this: unknown, ...args: unknown[]): unknown {
    return original.apply(this, before(this, args));
  };
}

function textOf(query: unknown): unknown {
  return typeof query === 'object' && query !== null ? (query as { text?: unknown }).text : query;
}

/**
 * A pool's query takes a client later, in a callback the caller's stack does not reach: it is
 * recorded at the pool, and that client's query, handed a query marked here, not again.
 */
function recordPostgres(library: typeof pg, record: (dialect: Dialect, text: unknown) => void): void {
  if (patched.has(library.Client.prototype)) return;
  patched.add(library.Client.prototype);
  const fromPool = new WeakSet<object>();
  wrap(library.Client.prototype, 'query', (_, args) => {
    if (!(typeof args[0] === 'object' && args[0] !== null && fromPool.has(args[0])))
      record('postgres', textOf(args[0]));
    return args;
  });
  wrap(library.Pool.prototype, 'query', (_, args) => {
    const [query, ...rest] = args;
    record('postgres', textOf(query));
    if (typeof query === 'string') {
      const marked = { text: query };
      fromPool.add(marked);
      return [marked, ...rest];
    }
    if (typeof query === 'object' && query !== null) fromPool.add(query);
    return args;
  });
}

/** Every statement of node-sqlite3 runs through a Statement (Database#run, #all… make one), or exec. */
function recordSqlite(record: (dialect: Dialect, text: unknown) => void): void {
  if (patched.has(sqlite3.Statement.prototype)) return;
  patched.add(sqlite3.Statement.prototype);
  for (const name of ['run', 'all', 'get', 'each']) {
    wrap(sqlite3.Statement.prototype, name, (self, args) => {
      record('sqlite', (self as { sql?: unknown }).sql);
      return args;
    });
  }
  wrap(sqlite3.Database.prototype, 'exec', (_, args) => {
    record('sqlite', args[0]);
    return args;
  });
}

/** Starts recording if SQL_STATEMENTS_FILE names a file; called once the app makes its data source's options. */
export function recordStatementsIfAsked(): void {
  const file = process.env[FILE_VARIABLE];
  if (file === undefined || file === '') return;
  // Deep enough to reach the file of ours that sent a statement through TypeORM.
  Error.stackTraceLimit = Math.max(Error.stackTraceLimit, 200);
  if (caller === undefined) {
    writeAsker = new AsyncLocalStorage<string>();
    caller = new AsyncLocalStorage<string>();
    recordTypeormCallers();
  }
  const record = recorder(file);
  recordSqlite(record);
  recordPostgres(pg, record);
  // TypeORM loads node-postgres from node_modules by itself: outside the app's bundle.
  recordPostgres(createRequire(__filename)('pg') as typeof pg, record);
}
