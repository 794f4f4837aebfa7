import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { signRequest } from '@tps/contracts';
import { AppProcess, DEMO_MERCHANT, REPO_ROOT, Stack, createInstantTerminals } from '@tps/testing';
import { chargeBody } from './lib/charge-body';

import { runLoad, type LoadRequest, type LoadResult } from './lib/load';
import { startPrism } from './lib/prism';

export interface SyncChargeComparison {
  ceiling: LoadResult[];
  prism: LoadResult[];
  project: LoadResult[];
  connections: number;
  durationSeconds: number;
}

function signedCharge(serial: string): LoadRequest {
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

async function repeat(reps: number, run: () => Promise<LoadResult>): Promise<LoadResult[]> {
  const results: LoadResult[] = [];
  for (let i = 0; i < reps; i++) results.push(await run());
  return results;
}

/**
 * The sync charge three ways in one run: the machine's ceiling (a bare server answering a canned
 * response), Prism mocking the project's own OpenAPI document, and the project doing the real
 * work (authentication, storage, the terminal round trip), one connection per terminal.
 */
export async function compareSyncCharge(
  reps: number,
  connections: number,
  durationSeconds: number,
): Promise<SyncChargeComparison> {
  const ceilingServer = await AppProcess.start(
    'ceiling',
    join(REPO_ROOT, 'dist/bench/lib/ceiling-server.js'),
    {},
  );
  const ceiling = await repeat(reps, () =>
    runLoad({
      url: ceilingServer.url,
      connections,
      durationSeconds,
      request: () => signedCharge('SIM0000002'),
    }),
  );
  await ceilingServer.stop();

  const stack = await Stack.start({ apiEnv: { RATE_LIMIT_MAX: '1000000' } });
  try {
    const serials = await createInstantTerminals(stack.client(), connections);
    const document = await (await fetch(`${stack.apiUrl}/openapi.json`)).text();
    const documentFile = join(stack.dir, 'openapi.json');
    writeFileSync(documentFile, document);

    const prismServer = await startPrism(documentFile);
    const prism = await repeat(reps, () =>
      runLoad({
        url: prismServer.url,
        connections,
        durationSeconds,
        request: (c) => signedCharge(serials[c]),
      }),
    );
    await prismServer.stop();

    const project = await repeat(reps, () =>
      runLoad({ url: stack.apiUrl, connections, durationSeconds, request: (c) => signedCharge(serials[c]) }),
    );
    return { ceiling, prism, project, connections, durationSeconds };
  } finally {
    await stack.stop();
  }
}
