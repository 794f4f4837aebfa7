import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { requestSignature } from '@tps/contracts';
import { ERROR_CATALOGUE } from '@tps/domain';
import { Stack } from '@tps/testing';

const run = promisify(execFile);

/** The fenced blocks of docs/contract.md marked ```<language> recipe=<name>, by name. */
function recipesIn(markdown: string): Map<string, string> {
  const recipes = new Map<string, string>();
  for (const match of markdown.matchAll(/^```\w+ recipe=([\w-]+)\n([\s\S]*?)^```$/gm)) {
    recipes.set(match[1], match[2]);
  }
  return recipes;
}

const CONTRACT = readFileSync(join(__dirname, '..', 'docs', 'contract.md'), 'utf8');
const RECIPES = recipesIn(CONTRACT);

/** How each recipe is run: the interpreter and the file name it is saved under. */
const RUNNERS: Record<string, { command: string; file: string }> = {
  curl: { command: 'bash', file: 'sign.sh' },
  python: { command: 'python3', file: 'sign.py' },
  node: { command: process.execPath, file: 'sign.mjs' },
  vector: { command: 'bash', file: 'vector.sh' },
};

const VECTOR_BODY =
  '{"amount":{"iva":1600,"subtotal_iva":10000,"subtotal_iva0":0},"client_transaction_id":"6f1c2b4e-8d1a-4c3e-9b7a-2f5d6e7a8b9c"}';

describe('the signing recipes of docs/contract.md §5.1, run as written', () => {
  let stack: Stack;
  let dir: string;

  beforeAll(async () => {
    stack = await Stack.start();
    dir = mkdtempSync(join(tmpdir(), 'tps-recipes-'));
  });

  afterAll(async () => {
    await stack?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function runRecipe(name: string): Promise<string> {
    const source = RECIPES.get(name);
    if (source === undefined) throw new Error(`docs/contract.md has no recipe=${name} block`);
    const { command, file } = RUNNERS[name];
    const path = join(dir, file);
    writeFileSync(path, source);
    const { stdout } = await run(command, [path], {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        BASE_URL: stack.apiUrl,
        MERCHANT_ID: 'demo-merchant',
        SECRET_KEY: 'demo-secret-key',
      },
      timeout: 60_000,
    });
    return stdout;
  }

  it('has exactly the recipes it documents', () => {
    expect([...RECIPES.keys()].sort()).toEqual(Object.keys(RUNNERS).sort());
  });

  it('states the test vector that the service itself computes', async () => {
    const signature = requestSignature(
      'demo-secret-key',
      '1795334400',
      'POST',
      '/terminal/v1/SIM0000002/async/charge',
      VECTOR_BODY,
    );
    const header = `Basic ${Buffer.from(`demo-merchant:${signature}`).toString('base64')}`;
    expect(CONTRACT).toContain(VECTOR_BODY);
    expect(CONTRACT).toContain(signature);
    expect(CONTRACT).toContain(`Authorization: ${header}`);
    expect((await runRecipe('vector')).trim()).toBe(signature);
  });

  it.each(['curl', 'python', 'node'])(
    'the %s recipe signs a bodiless read and a sync charge that the service answers with 200',
    async (name) => {
      const lines = (await runRecipe(name)).trim().split('\n');
      expect(lines).toHaveLength(2);
      const [clock, charge] = lines.map((line) => {
        const space = line.indexOf(' ');
        return {
          status: line.slice(0, space),
          body: JSON.parse(line.slice(space + 1)) as Record<string, unknown>,
        };
      });
      expect(clock.status).toBe('200');
      expect(clock.body).toHaveProperty('offset_seconds');
      expect(charge.status).toBe('200');
      expect(charge.body).toMatchObject({ approved: true, responseCode: '00' });
    },
  );
});

/** GitHub's anchor of a heading: lowercase, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

describe('the contract in the repository', () => {
  const root = join(__dirname, '..');
  const documents = [
    'README.md',
    ...readdirSync(join(root, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`),
  ];

  it.each(documents)('%s points to nothing outside the repository', (document) => {
    expect(readFileSync(join(root, document), 'utf8')).not.toMatch(/\.\.\/shared|shared\/spec/);
  });

  it('has every section of docs/contract.md that the README links to', () => {
    // Headings only: a `#` comment inside a fenced code block is no section.
    const prose = CONTRACT.replace(/^```[\s\S]*?^```$/gm, '');
    const anchors = new Set([...prose.matchAll(/^#+ (.+)$/gm)].map((match) => anchorOf(match[1])));
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const linked = [...readme.matchAll(/\(docs\/contract\.md#([^)]+)\)/g)].map((match) => match[1]);
    expect(linked.length).toBeGreaterThan(0);
    for (const anchor of linked) expect(anchors).toContain(anchor);
  });

  it('lists every code of the error catalogue with its status and type', () => {
    for (const [code, { status, type }] of Object.entries(ERROR_CATALOGUE)) {
      expect(CONTRACT).toMatch(new RegExp(`\\| ${status} +\\| ${type} +\\| ${code} +\\|`));
    }
  });
});
