import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT, Stack } from '@tps/testing';

const run = promisify(execFile);
const CONVERT = join(REPO_ROOT, 'node_modules/openapi-to-postmanv2/bin/openapi2postmanv2.js');
const NEWMAN = join(REPO_ROOT, 'node_modules/newman/bin/newman.js');
const SIGNING_SCRIPT = join(REPO_ROOT, 'examples/postman/sign-request.js');

interface Item {
  name: string;
  item?: Item[];
  request?: { method: string; url: { path?: string[] } };
}
interface Collection {
  item: Item[];
  event?: unknown[];
  auth?: unknown;
}
interface Execution {
  item: { name: string };
  request: { method: string; url: { path: string[] } };
  response?: { code: number; stream?: { data: number[] } };
}

/** Every request of a collection, folders flattened. */
function requestsOf(items: Item[]): Item[] {
  return items.flatMap((item) => (item.item === undefined ? [item] : requestsOf(item.item)));
}

const routeOf = (item: Item): string =>
  `${item.request?.method} /${(item.request?.url.path ?? []).join('/')}`;

/**
 * A Postman collection made from the served document with openapi-to-postmanv2, as the README
 * says (bodies from the document's examples), run by newman against a sandbox: the requests
 * without credentials as generated, the signed ones with the pre-request script of
 * examples/postman.
 */
describe('the served document as a Postman collection, run by newman', () => {
  let stack: Stack;
  let collection: Collection;

  beforeAll(async () => {
    stack = await Stack.start();
    const document = join(stack.dir, 'openapi.json');
    writeFileSync(document, await (await fetch(`${stack.apiUrl}/openapi.json`)).text());
    const output = join(stack.dir, 'collection.json');
    await run(
      process.execPath,
      [CONVERT, '-s', document, '-o', output, '-O', 'parametersResolution=Example,folderStrategy=Tags'],
      {
        timeout: 120_000,
      },
    );
    collection = JSON.parse(readFileSync(output, 'utf8')) as Collection;
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
  });

  /** Runs the given requests of the collection in newman: each one's route, status and body. */
  async function newman(
    routes: string[],
    variables: Record<string, string>,
    prepare: (collection: Collection) => Collection = (given) => given,
  ): Promise<Array<{ route: string; status: number | undefined; body: any }>> {
    const chosen = requestsOf(collection.item).filter((item) => routes.includes(routeOf(item)));
    expect(chosen.map(routeOf).sort()).toEqual([...routes].sort());
    const file = join(stack.dir, `run-${Date.now()}.json`);
    const report = join(stack.dir, `report-${Date.now()}.json`);
    writeFileSync(file, JSON.stringify(prepare({ ...collection, item: chosen })));
    const vars = Object.entries({ baseUrl: stack.apiUrl, ...variables }).flatMap(([key, value]) => [
      '--env-var',
      `${key}=${value}`,
    ]);
    await run(
      process.execPath,
      [NEWMAN, 'run', file, ...vars, '--reporters', 'json', '--reporter-json-export', report],
      {
        timeout: 120_000,
      },
    ).catch((error: { stdout: string }) => {
      throw new Error(`newman failed: ${error.stdout}`);
    });
    const { run: done } = JSON.parse(readFileSync(report, 'utf8')) as { run: { executions: Execution[] } };
    return done.executions.map((execution) => {
      const text = Buffer.from(execution.response?.stream?.data ?? []).toString('utf8');
      return {
        route: `${execution.request.method} /${execution.request.url.path.join('/')}`,
        status: execution.response?.code,
        body: text === '' ? undefined : JSON.parse(text),
      };
    });
  }

  it('runs the requests that need no credentials as generated, with baseUrl the sandbox', async () => {
    const answers = await newman(['GET /health', 'GET /ready', 'GET /'], {});
    expect(answers.map(({ route, status }) => [route, status])).toEqual(
      expect.arrayContaining([
        ['GET /health', 200],
        ['GET /ready', 200],
        ['GET /', 200],
      ]),
    );
  });

  it('signs the others with the shipped pre-request script: a charge as the example shows, approved, anew each run', async () => {
    const signing = (given: Collection): Collection => ({
      ...given,
      auth: { type: 'noauth' },
      event: [
        {
          listen: 'prerequest',
          script: { type: 'text/javascript', exec: readFileSync(SIGNING_SCRIPT, 'utf8').split('\n') },
        },
      ],
    });
    const credentials = { merchantId: 'demo-merchant', secretKey: 'demo-secret-key' };
    const routes = ['GET /sandbox/clock', 'POST /terminal/v1/sync/charge'];
    const first = await newman(routes, credentials, signing);
    const second = await newman(routes, credentials, signing);
    for (const answers of [first, second]) {
      expect(answers.map(({ route, status }) => [route, status]).sort()).toEqual([
        ['GET /sandbox/clock', 200],
        ['POST /terminal/v1/sync/charge', 200],
      ]);
    }
    const charge = (answers: typeof first) => answers.find(({ route }) => route.startsWith('POST'))?.body;
    expect(charge(first)).toMatchObject({ approved: true });
    expect(charge(second)).toMatchObject({ approved: true });
    expect(charge(second).rawResponse.transaction_reference).not.toBe(
      charge(first).rawResponse.transaction_reference,
    );
  });
});
