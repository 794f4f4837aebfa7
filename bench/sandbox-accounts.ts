/**
 * `npm run bench:accounts`: creates BENCH_ACCOUNTS (200) sandbox accounts of two terminals one
 * after another, as CI jobs would, and prints the latency of `POST /sandbox/accounts`; then
 * checks that every terminal is still linked (`GET /ready`) and that the first and the last
 * account both take a charge. A measurement, printed once: no test asserts a speed.
 */
import { randomUUID } from 'node:crypto';
import { Stack } from '@tps/testing';
import { percentile } from './lib/stats';
import { residentMiB } from './lib/resident-memory';

const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 200);

interface Account {
  merchant_id: string;
  secret_key: string;
  terminals: Array<{ serialNumber: string; link: string }>;
}

async function main(): Promise<void> {
  const stack = await Stack.start({ apiEnv: { ACCOUNT_RATE_LIMIT_MAX: String(ACCOUNTS * 2) } });
  try {
    const latencies: number[] = [];
    const accounts: Account[] = [];
    for (let i = 0; i < ACCOUNTS; i++) {
      const started = performance.now();
      const response = await fetch(`${stack.apiUrl}/sandbox/accounts`, { method: 'POST' });
      latencies.push(performance.now() - started);
      if (response.status !== 201)
        throw new Error(`account ${i}: ${response.status} ${await response.text()}`);
      accounts.push((await response.json()) as Account);
    }
    const down = accounts.flatMap((a) => a.terminals).filter((t) => t.link !== 'up').length;
    const ready = await fetch(`${stack.apiUrl}/ready`);
    for (const account of [accounts[0], accounts[accounts.length - 1]]) {
      const client = stack.client().as({ merchantId: account.merchant_id, secret: account.secret_key });
      const charge = await client.post('/terminal/v1/sync/charge', {
        amount: { iva: 1600, subtotal_iva: 10000, subtotal_iva0: 0 },
        client_transaction_id: randomUUID(),
      });
      if (charge.status !== 200) throw new Error(`charge: ${charge.status} ${JSON.stringify(charge.body)}`);
    }
    const f = (ms: number): string => `${ms.toFixed(1)} ms`;
    const mib = (pid: number | undefined): string =>
      pid === undefined ? 'n/a' : residentMiB(pid).toFixed(0);
    process.stdout.write(
      [
        `${ACCOUNTS} accounts of 2 terminals, created one after another`,
        `POST /sandbox/accounts: p50 ${f(percentile(latencies, 50))}, p99 ${f(percentile(latencies, 99))}, max ${f(Math.max(...latencies))}`,
        `terminals answered down: ${down}; GET /ready afterwards: ${ready.status}`,
        `resident memory: api ${mib(stack.api.pid)} MiB, simulator ${mib(stack.simulator?.pid)} MiB`,
        '',
      ].join('\n'),
    );
  } finally {
    await stack.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
