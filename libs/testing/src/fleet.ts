import type { SignedClient } from './signed-client';
import { poll } from './stack';

/** Adds `count` instant terminals to the demo merchant's fleet and waits until all are linked. */
export async function createInstantTerminals(client: SignedClient, count: number): Promise<string[]> {
  const serials: string[] = [];
  for (let i = 0; i < count; i++) {
    const response = await client.post<{ serialNumber: string }>('/sandbox/terminals', { pace: 'instant' });
    if (response.status !== 201)
      throw new Error(`could not add a terminal: ${JSON.stringify(response.body)}`);
    serials.push(response.body.serialNumber);
  }
  await poll(
    `${count} new terminals linked`,
    async () => {
      const fleet = await client.get<Array<{ serialNumber: string; link: string }>>('/sandbox/terminals');
      const up = new Set(fleet.body.filter((t) => t.link === 'up').map((t) => t.serialNumber));
      return serials.every((s) => up.has(s)) ? true : undefined;
    },
    30_000,
  );
  return serials;
}
