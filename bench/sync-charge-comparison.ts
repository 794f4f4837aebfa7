import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { signRequest } from '@tps/contracts';
import { AppProcess, DEMO_MERCHANT, REPO_ROOT, Stack, createInstantTerminals } from '@tps/testing';
import { chargeBody } from './lib/charge-body';

import { runLoad, type LoadRequest, type LoadResult } from './lib/load';
import { startPrism } from './lib/prism';
import { cpuTimeMs, ofPid, sampleResident, type LoadMemory } from './lib/resident-memory';

/** A load run on the project, with the CPU each app spent per 2xx answer. */
export interface ProjectLoad extends LoadResult {
  apiCpuMsPerCharge: number;
  simulatorCpuMsPerCharge: number;
}

export interface SyncChargeComparison {
  ceiling: LoadResult[];
  prism: LoadResult[];
  project: ProjectLoad[];
  /** The warm-up of each server, on the same process as its measured runs (none at 0 s). */
  warmup: { ceiling?: LoadResult; prism?: LoadResult; project?: ProjectLoad };
  /** The project's two apps idle (terminals linked) and after the warm-up and every measured run. */
  memory: LoadMemory;
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
}

/** A signed sync charge on `serial`, with a fresh client_transaction_id. */
export function signedCharge(serial: string): LoadRequest {
  const path = `/terminal/v1/${serial}/sync/charge`;
  const body = chargeBody();
  const signed = signRequest({ ...DEMO_MERCHANT, method: 'POST', path, body });
  return {
    method: 'POST',
    path,
    body,
    headers: {
      'content-type': 'application/json',
      authorization: signed.authorization,
      timestamp: signed.timestamp,
    },
  };
}

/** A warm-up (skipped at 0 s), then `reps` measured runs, all on the same server process. */
export async function warmThenRepeat<T extends LoadResult>(
  phases: { warmupSeconds: number; durationSeconds: number; reps: number },
  run: (seconds: number) => Promise<T>,
): Promise<{ warmup?: T; measured: T[] }> {
  const warmup = phases.warmupSeconds > 0 ? await run(phases.warmupSeconds) : undefined;
  const measured: T[] = [];
  for (let i = 0; i < phases.reps; i++) measured.push(await run(phases.durationSeconds));
  return { warmup, measured };
}

/** Long enough for the charges a cut-off run left in flight to end, on a loaded machine too. */
const SETTLE_MS = 2000;

/** Sync charges on the project's API for `seconds`, one connection per terminal, with each app's CPU per charge. */
export async function loadProject(stack: Stack, serials: string[], seconds: number): Promise<ProjectLoad> {
  // The run before was cut off with a charge in flight on each terminal: a charge sent to a
  // terminal still busy with it is 409 TER-003, a refusal of the bench's own making.
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  const api = ofPid(stack.api.pid, cpuTimeMs);
  const simulator = ofPid(stack.simulator?.pid, cpuTimeMs);
  const result = await runLoad({
    url: stack.apiUrl,
    connections: serials.length,
    durationSeconds: seconds,
    request: (c) => signedCharge(serials[c]),
  });
  return {
    ...result,
    apiCpuMsPerCharge: (ofPid(stack.api.pid, cpuTimeMs) - api) / result.ok,
    simulatorCpuMsPerCharge: (ofPid(stack.simulator?.pid, cpuTimeMs) - simulator) / result.ok,
  };
}

/**
 * The sync charge three ways in one run: the machine's ceiling (a bare server answering a canned
 * response), Prism mocking the project's own OpenAPI document, and the project doing the real
 * work (authentication, storage, the terminal round trip), one connection per terminal. Each
 * server is warmed up first on the same process, so JIT compilation stays out of the figures.
 */
export async function compareSyncCharge(
  reps: number,
  connections: number,
  durationSeconds: number,
  warmupSeconds: number,
): Promise<SyncChargeComparison> {
  const phases = { warmupSeconds, durationSeconds, reps };
  const ceilingServer = await AppProcess.start(
    'ceiling',
    join(REPO_ROOT, 'dist/bench/lib/ceiling-server.js'),
    {},
  );
  const ceiling = await warmThenRepeat(phases, (seconds) =>
    runLoad({
      url: ceilingServer.url,
      connections,
      durationSeconds: seconds,
      request: () => signedCharge('SIM0000002'),
    }),
  );
  await ceilingServer.stop();

  const stack = await Stack.start({ apiEnv: { RATE_LIMIT_MAX: '1000000' } });
  try {
    const serials = await createInstantTerminals(stack.client(), connections);
    const pids = { api: stack.api.pid, simulator: stack.simulator?.pid };
    const idle = await sampleResident(pids);
    const document = await (await fetch(`${stack.apiUrl}/openapi.json`)).text();
    const documentFile = join(stack.dir, 'openapi.json');
    writeFileSync(documentFile, document);

    const prismServer = await startPrism(documentFile);
    const prism = await warmThenRepeat(phases, (seconds) =>
      runLoad({
        url: prismServer.url,
        connections,
        durationSeconds: seconds,
        request: (c) => signedCharge(serials[c]),
      }),
    );
    await prismServer.stop();

    const project = await warmThenRepeat(phases, (seconds) => loadProject(stack, serials, seconds));
    const loaded = await sampleResident(pids);
    const runs = [...(project.warmup ? [project.warmup] : []), ...project.measured];
    return {
      ceiling: ceiling.measured,
      prism: prism.measured,
      project: project.measured,
      warmup: { ceiling: ceiling.warmup, prism: prism.warmup, project: project.warmup },
      memory: {
        idleApiMiB: idle.api,
        idleSimulatorMiB: idle.simulator,
        loadedApiMiB: loaded.api,
        loadedSimulatorMiB: loaded.simulator,
        transactions: runs.reduce((sum, r) => sum + r.ok, 0),
      },
      connections,
      durationSeconds,
      warmupSeconds,
    };
  } finally {
    await stack.stop();
  }
}
