import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import createClient, { type Middleware } from 'openapi-fetch';
import { signRequest } from '@tps/contracts';
import { DEMO_MERCHANT, OpenApiConformance, poll, Stack, WebhookReceiver } from '@tps/testing';
import type { paths } from '@tps/client';

const GENERATED = join(__dirname, '..', 'libs', 'client', 'src', 'generated', 'openapi.d.ts');
const CLI = join(__dirname, '..', 'node_modules', 'openapi-typescript', 'bin', 'cli.js');

/**
 * Compiles only for a real type: openapi-typescript types an answer without a schema as `never`,
 * and `never` would let every property access below compile.
 */
type Typed<T> = [T] extends [never] ? 'the document gives this answer no schema' : T;
function answered<T>(value: T | undefined): Typed<NonNullable<T>> {
  expect(value).toBeDefined();
  return value as Typed<NonNullable<T>>;
}

/**
 * What a point of sale using the generated client does: sign each request as contract §5 says,
 * setting both headers of the security scheme, which no operation declares as a parameter.
 */
const signing: Middleware = {
  async onRequest({ request }) {
    const url = new URL(request.url);
    const body = request.body === null ? '' : await request.clone().text();
    const signed = signRequest({
      ...DEMO_MERCHANT,
      method: request.method,
      path: `${url.pathname}${url.search}`,
      body,
    });
    request.headers.set('authorization', signed.authorization);
    request.headers.set('timestamp', signed.timestamp);
    return request;
  },
};

/** A consumer's file, typed by the document as served: calls with no parameters at all. */
const CONSUMER = `
import createClient from 'openapi-fetch';
import type { paths } from './openapi';

export async function consumer(baseUrl: string): Promise<number> {
  const client = createClient<paths>({ baseUrl });
  const clock = await client.GET('/sandbox/clock');
  const charge = await client.POST('/terminal/v1/sync/charge', {
    body: { amount: { iva: 1600, subtotal_iva: 10000, subtotal_iva0: 0 }, client_transaction_id: 'x' },
  });
  return (clock.data?.offset_seconds ?? 0) + (charge.data?.approved === true ? 1 : 0);
}
`;
const TSC = join(__dirname, '..', 'node_modules', 'typescript', 'bin', 'tsc');
const amount = { iva: 1600, subtotal_iva: 10000, subtotal_iva0: 0 };

describe('a client generated from /openapi.json (openapi-typescript + openapi-fetch)', () => {
  let stack: Stack;
  let receiver: WebhookReceiver;
  let conformance: OpenApiConformance;
  let client: ReturnType<typeof createClient<paths>>;

  beforeAll(async () => {
    stack = await Stack.start();
    receiver = await WebhookReceiver.start();
    conformance = await OpenApiConformance.load(stack.apiUrl);
    client = createClient<paths>({ baseUrl: stack.apiUrl });
    client.use(signing, {
      async onResponse({ request, response }) {
        const url = new URL(request.url);
        const text = await response.clone().text();
        const problem = conformance.problem(
          request.method,
          `${url.pathname}${url.search}`,
          response.status,
          text,
        );
        if (problem !== undefined) throw new Error(problem);
        return response;
      },
    });
  });

  afterAll(async () => {
    await receiver?.close();
    await stack?.stop();
  });

  it('is what openapi-typescript makes of the served document today (npm run openapi:types)', async () => {
    const document = await (await fetch(`${stack.apiUrl}/openapi.json`)).text();
    const source = join(stack.dir, 'openapi.json');
    const output = join(stack.dir, 'openapi.d.ts');
    writeFileSync(source, document);
    // Not execFileSync: a blocked event loop would miss the API closing an idle keep-alive socket.
    await promisify(execFile)(process.execPath, [CLI, source, '-o', output]);
    expect(readFileSync(output, 'utf8')).toBe(readFileSync(GENERATED, 'utf8'));
  });

  // Two compilers in a row (openapi-typescript, then tsc): minutes on a loaded machine.
  it('types a call that passes no parameters under tsc --strict: no dummy timestamp to give', async () => {
    const document = await (await fetch(`${stack.apiUrl}/openapi.json`)).text();
    const dir = join(stack.dir, 'consumer');
    mkdirSync(dir);
    writeFileSync(join(dir, 'openapi.json'), document);
    await promisify(execFile)(process.execPath, [
      CLI,
      join(dir, 'openapi.json'),
      '-o',
      join(dir, 'openapi.d.ts'),
    ]);
    writeFileSync(join(dir, 'consumer.ts'), CONSUMER);
    // openapi-fetch from this checkout's node_modules, as an installed dependency would be found.
    const tsconfig = {
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'es2022',
        module: 'esnext',
        moduleResolution: 'bundler',
        lib: ['es2022', 'dom'],
        types: [],
        paths: { 'openapi-fetch': [join(__dirname, '..', 'node_modules', 'openapi-fetch')] },
      },
      files: ['consumer.ts'],
    };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
    const compiled = await promisify(execFile)(process.execPath, [TSC, '-p', dir]).then(
      () => 'compiled',
      (error: { stdout: string }) => error.stdout,
    );
    expect(compiled).toBe('compiled');
  }, 240_000);

  it('charges, finds the charge, prints its receipt and reads the job, all typed by the document', async () => {
    const clientTransactionId = randomUUID();
    const charge = await client.POST('/terminal/v1/sync/charge', {
      body: { amount, client_transaction_id: clientTransactionId },
    });
    const authorization = answered(charge.data);
    expect(authorization.approved).toBe(true);
    const reference: string = authorization.rawResponse.transaction_reference;

    const search = await client.POST('/terminal/v1/sync/transaction_search_online', {
      body: { client_transaction_id: clientTransactionId },
    });
    const [item] = answered(search.data).items;
    expect(item.transaction_reference).toBe(reference);
    expect(item.amount.total).toBe(11600);
    expect(item.events.map((event) => event.status)).toContain('APPROVAL');

    const created = await client.POST('/terminal/v1/{terminalSerial}/print', {
      params: { path: { terminalSerial: 'SIM0000001' } },
      body: {
        transaction_reference: reference,
        externalReference: 'order-1',
        webhookUrl: receiver.url('/print'),
      },
    });
    expect(created.response.status).toBe(202);
    const printJobId = answered(created.data).printJobId;
    const job = await poll(
      'the receipt to print',
      async () => {
        const read = await client.GET('/terminal/v1/{terminalSerial}/print/{printJobId}', {
          params: { path: { terminalSerial: 'SIM0000001', printJobId } },
        });
        const record = answered(read.data);
        return record.status === 'COMPLETED' ? record : undefined;
      },
      10_000,
    );
    expect(job.externalReference).toBe('order-1');
    expect(job.printedText).toContain('TOTAL');
    await receiver.waitFor((received) => received.some((r) => r.path === '/print'));
    expect(
      receiver.bodies('/print').map((body) => conformance.webhookProblem('print.finished', body)),
    ).toEqual([undefined]);
  });

  it('sends the webhooks the document describes, one per status after the acknowledgement', async () => {
    const started = await client.POST('/terminal/v1/{terminalSerial}/async/charge', {
      params: { path: { terminalSerial: 'SIM0000002' } },
      body: { amount, client_transaction_id: randomUUID(), events_webhook_url: receiver.url('/events') },
    });
    expect(answered(started.data).status).toBe('TERMINAL_ACKNOWLEDGED');
    await receiver.waitFor((received) =>
      received.some((r) => r.path === '/events' && (r.body as { status?: string }).status === 'APPROVAL'),
    );
    const events = receiver.bodies<{ status: string }>('/events');
    expect(events.map((event) => event.status)).toEqual(['CARD_PRESENTED', 'APPROVAL_REQUESTED', 'APPROVAL']);
    expect(events.map((event) => conformance.webhookProblem(`transaction.${event.status}`, event))).toEqual(
      events.map(() => undefined),
    );
  });

  it('types an error answer by the shared error schema', async () => {
    const capture = await client.POST('/terminal/v1/sync/capture', {
      body: { client_transaction_id: randomUUID(), transaction_reference: randomUUID() },
    });
    expect(capture.response.status).toBe(404);
    const error = answered(capture.error);
    expect(error.code).toBe('NF-001');
    expect(error.type).toBe('NOT_FOUND');
    expect(error.param).toBe('transaction_reference');
  });
});
