/**
 * `npm run bench:files`: the files of this project a sync charge passes through, in each app.
 * Both apps run with V8's precise coverage (bench/lib/coverage-preload.ts) on SQLite; after 20
 * warm-up charges on one instant terminal, the counts are reset, half a second passes with
 * nothing sent (the background's files), then one charge (its files, what the background ran
 * meanwhile included). A file counts when a function of it was called; each function is placed
 * in its file by the bundle's source map. Barrels (`index`) are left out: their re-exports are
 * getters, called on every use of a name they export.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import type { Profiler } from 'node:inspector';
import { APPS_ROOT, REPO_ROOT, Stack, createInstantTerminals } from '@tps/testing';
import { chargeBody } from './lib/charge-body';
import { describeMachine } from './lib/machine';
import { withSectionTitled } from './lib/markdown-section';

const TITLE = '## Files a sync charge passes through';
const WARM_UP_CHARGES = 20;
const APPS = { api: 'API', 'terminal-simulator': 'simulator' } as const;
type App = keyof typeof APPS;

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

/** The 0-based line of `offset`, by the offsets at which lines start (ascending). */
function lineOf(lineStarts: number[], offset: number): number {
  let [low, high] = [0, lineStarts.length - 1];
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (lineStarts[middle] <= offset) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** The project's source files (apps/, libs/, without barrels) whose functions `scripts` called. */
function filesCalled(scripts: Profiler.ScriptCoverage[], bundle: string): Set<string> {
  const text = readFileSync(bundle, 'utf8');
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lineStarts.push(i + 1);
  const map = new SourceMap(JSON.parse(readFileSync(`${bundle}.map`, 'utf8')) as never);
  const files = new Set<string>();
  for (const script of scripts) {
    for (const fn of script.functions) {
      const [range] = fn.ranges;
      if (range.count === 0) continue;
      const line = lineOf(lineStarts, range.startOffset);
      const entry = map.findEntry(line, range.startOffset - lineStarts[line]) as { originalSource?: string };
      if (entry.originalSource === undefined) continue;
      const source = relative(join(APPS_ROOT, 'dist'), resolve(dirname(bundle), entry.originalSource));
      if (!/^(apps|libs)\//.test(source) || /\/index\.js$/.test(source)) continue;
      files.add(source.replace(/\.js$/, '.ts'));
    }
  }
  return files;
}

async function measure(): Promise<Record<App, { charge: Set<string>; background: Set<string> }>> {
  const dir = mkdtempSync(join(tmpdir(), 'tps-charge-files-'));
  const trigger = join(dir, 'take');
  const env = (app: App): Record<string, string> => ({
    NODE_OPTIONS: `--require ${join(REPO_ROOT, 'dist/bench/lib/coverage-preload.js')}`,
    CHARGE_FILES_TRIGGER: trigger,
    CHARGE_FILES_APP: app,
  });
  const take = async (name: string): Promise<void> => {
    writeFileSync(trigger, name);
    await sleep(300);
  };
  const stack = await Stack.start({ apiEnv: env('api'), simulatorEnv: env('terminal-simulator') });
  try {
    const client = stack.client();
    const [serial] = await createInstantTerminals(client, 1);
    const charge = async (): Promise<void> => {
      const answer = await client.send('POST', `/terminal/v1/${serial}/sync/charge`, chargeBody());
      if (answer.status !== 200) throw new Error(`charge answered ${answer.status}`);
    };
    for (let i = 0; i < WARM_UP_CHARGES; i++) await charge();
    await sleep(1000);
    await take('reset');
    await sleep(500);
    await take('background');
    await charge();
    await take('charge');
  } finally {
    await stack.stop();
  }
  const result = {} as Record<App, { charge: Set<string>; background: Set<string> }>;
  for (const app of Object.keys(APPS) as App[]) {
    const bundle = join(APPS_ROOT, 'dist/apps', app, 'src/main.js');
    const read = (name: string): Set<string> =>
      filesCalled(
        JSON.parse(readFileSync(join(dir, `${name}.${app}.json`), 'utf8')) as Profiler.ScriptCoverage[],
        bundle,
      );
    result[app] = { charge: read('charge'), background: read('background') };
  }
  rmSync(dir, { recursive: true, force: true });
  return result;
}

async function main(): Promise<void> {
  const measured = await measure();
  const machine = describeMachine();
  const lines = [
    TITLE,
    '',
    'Reproduce with `npm run bench:files`. Both apps on SQLite under V8 precise coverage; after 20',
    'warm-up charges on one instant terminal, one sync charge. A file counts when a function of it',
    'ran during the charge (the background work of that moment included); barrels left out.',
    `"Also in the background" are those that ran as well in half a second with nothing sent. ${machine.date}.`,
    '',
    '| app | files of this project | also in the background |',
    '| --- | --- | --- |',
    ...(Object.keys(APPS) as App[]).map((app) => {
      const { charge, background } = measured[app];
      return `| ${APPS[app]} | ${charge.size} | ${[...charge].filter((f) => background.has(f)).length} |`;
    }),
    '',
    ...(Object.keys(APPS) as App[]).flatMap((app) => [
      `${APPS[app]}: ${[...measured[app].charge]
        .sort()
        .map((f) => `\`${f}\``)
        .join(', ')}.`,
      '',
    ]),
  ];
  const path = join(REPO_ROOT, 'BENCHMARKS.md');
  writeFileSync(path, withSectionTitled(readFileSync(path, 'utf8'), TITLE, lines.join('\n')));
  console.log(lines.slice(7, 10).join('\n'));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
