import type { Machine } from './lib/machine';
import type { TableSizes } from './lib/table-sizes';

export interface AppBytes {
  api: TableSizes;
  terminal: TableSizes;
}

export interface StoreBytes {
  store: string;
  sync: AppBytes;
  async: AppBytes;
}

export interface BytesRun {
  machine: Machine;
  commit: string;
  transactions: number;
  terminals: number;
  stores: StoreBytes[];
  /** The run of an earlier commit, for the before/after table. */
  before?: BytesRun;
}

export const BYTES_SECTION_TITLE = '## Bytes stored per transaction';
const APPS = [
  ['api', 'API'],
  ['terminal', 'simulator'],
] as const;

const total = (sizes: TableSizes): number => Object.values(sizes).reduce((sum, bytes) => sum + bytes, 0);
const bytes = (value: number | undefined): string => (value === undefined ? '—' : String(Math.round(value)));

function storeTable(store: StoreBytes): string[] {
  const lines = [
    `### ${store.store === 'sqlite' ? 'SQLite' : 'PostgreSQL'}`,
    '',
    '| app | table | sync charge, bytes | async charge with its webhook, bytes |',
    '| --- | --- | --- | --- |',
  ];
  for (const [app, name] of APPS) {
    const tables = [...new Set([...Object.keys(store.sync[app]), ...Object.keys(store.async[app])])].sort();
    for (const table of tables) {
      lines.push(
        `| ${name} | ${table} | ${bytes(store.sync[app][table])} | ${bytes(store.async[app][table])} |`,
      );
    }
    lines.push(
      `| ${name} | **all** | **${bytes(total(store.sync[app]))}** | **${bytes(total(store.async[app]))}** |`,
    );
  }
  return lines;
}

function beforeAfter(run: BytesRun, before: BytesRun): string[] {
  const lines = [
    `### Before (${before.commit}) and after (${run.commit})`,
    '',
    '| store | app | charge | before, bytes | after, bytes | after/before |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  for (const store of run.stores) {
    const old = before.stores.find((candidate) => candidate.store === store.store);
    if (old === undefined) continue;
    for (const [app, name] of APPS) {
      for (const phase of ['sync', 'async'] as const) {
        const was = total(old[phase][app]);
        const now = total(store[phase][app]);
        lines.push(
          `| ${store.store} | ${name} | ${phase} | ${bytes(was)} | ${bytes(now)} | ${(now / was).toFixed(2)}× |`,
        );
      }
    }
  }
  return lines;
}

/** The section: per store, per app and table, what one transaction adds; then before/after, if given. */
export function renderBytes(run: BytesRun): string {
  const { machine } = run;
  const lines = [
    BYTES_SECTION_TITLE,
    '',
    `Reproduce with \`npm run bench:bytes\`. Fresh stacks (both apps), ${run.terminals} instant terminals;`,
    `${run.transactions} sync charges, then ${run.transactions} async charges whose webhooks (four events each)`,
    'a local receiver takes; each table (its indexes included) measured before and after each phase,',
    'divided by the charges. SQLite: the pages of `dbstat`; PostgreSQL: `pg_total_relation_size`, dead',
    'rows not yet vacuumed included. Page-granular: a table that grows by less than a page per charge',
    'shows its pages, not its rows.',
    '',
    `- date: ${machine.date}`,
    `- machine: ${machine.cores} cores, ${machine.cpu}, ${machine.memoryGiB} GiB`,
    `- Node: ${machine.node}`,
    `- apps: this checkout at ${run.commit}`,
    '',
  ];
  for (const store of run.stores) lines.push(...storeTable(store), '');
  if (run.before !== undefined) lines.push(...beforeAfter(run, run.before), '');
  return `${lines.join('\n').trimEnd()}\n`;
}
