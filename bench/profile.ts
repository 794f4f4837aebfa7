/**
 * `npm run bench:profile`: the async pipeline's closed loop with both apps under `node --cpu-prof`,
 * then where each app's time went during the load (the "where the time goes" of BENCHMARKS.md).
 * Knobs: BENCH_PIPELINE_TERMINALS (32), BENCH_SECONDS (10), BENCH_WARMUP_SECONDS (15: a warm-up on
 * the same processes first, left out of the window). The .cpuprofile files are kept for Chrome
 * DevTools or any other viewer; their folder is printed.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measurePipeline } from './async-pipeline';
import { summarize, type CpuProfile, type Share } from './lib/cpu-profile-summary';

const TERMINALS = Number(process.env.BENCH_PIPELINE_TERMINALS ?? 32);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 15);
/**
 * The apps stop within this of the load's end (a second's pause to sample their memory, then the
 * shutdown); that stays out of the window.
 */
const SHUTDOWN_MS = 2500;

const percent = (share: number): string => `${(share * 100).toFixed(1).padStart(5)} %`;
const lines = (shares: Share[]): string => shares.map((s) => `  ${percent(s.share)}  ${s.name}`).join('\n');

function appOf(profile: CpuProfile): string {
  const urls = profile.nodes.map((node) => node.callFrame.url);
  return urls.some((url) => url.includes('/apps/terminal-simulator/')) ? 'terminal simulator' : 'API';
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'tps-cpu-prof-'));
  // Read by AppProcess when it starts each app.
  process.env.APP_NODE_ARGS = `--cpu-prof --cpu-prof-dir=${dir}`;
  const result = await measurePipeline(TERMINALS, SECONDS, undefined, WARMUP_SECONDS);
  process.stdout.write(
    `closed loop over ${TERMINALS} terminals, ${SECONDS} s: ${result.transactionsPerSecond.toFixed(1)} tx/s, ` +
      `API ${result.apiCpuMsPerTransaction.toFixed(1)} ms CPU/tx, simulator ${result.simulatorCpuMsPerTransaction.toFixed(1)} ms CPU/tx\n`,
  );
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'))) {
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
    const summary = summarize(profile, { fromEndMs: SECONDS * 1000 + SHUTDOWN_MS, toEndMs: SHUTDOWN_MS });
    process.stdout.write(
      `\n${appOf(profile)} (${file}), ${summary.windowMs.toFixed(0)} ms of load\n` +
        `self time by owner:\n${lines(summary.byOwner)}\n` +
        `our functions, inclusive:\n${lines(summary.ours)}\n`,
    );
  }
  process.stdout.write(`\nprofiles kept in ${dir}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
