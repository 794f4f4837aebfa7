import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as ts from 'typescript';
import { Stack } from '@tps/testing';

const run = promisify(execFile);
const ROOT = join(__dirname, '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const CLIENT_ENTRY = join(ROOT, 'dist', 'libs', 'client', 'src', 'index.js');

/** The README's fenced block marked ```ts example=<name>. */
function exampleNamed(name: string): string {
  const match = new RegExp(`^\`\`\`ts example=${name}\\n([\\s\\S]*?)^\`\`\`$`, 'm').exec(README);
  if (match === null) throw new Error(`README.md has no \`\`\`ts example=${name} block`);
  return match[1];
}

/** The repository's compiler options (strict, the @tps paths), reading nothing else. */
function compilerOptions(): ts.CompilerOptions {
  const config = ts.readConfigFile(join(ROOT, 'tsconfig.json'), (path) => ts.sys.readFile(path));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  return { ...parsed.options, noEmit: true };
}

describe('the typed client example of the README, compiled and run', () => {
  let stack: Stack;
  let dir: string;
  let source: string;

  beforeAll(async () => {
    stack = await Stack.start();
    // Inside the checkout (.tmp/ is ignored), so that the example finds its packages as a user's would.
    mkdirSync(join(ROOT, '.tmp'), { recursive: true });
    dir = mkdtempSync(join(ROOT, '.tmp', 'readme-client-'));
    source = join(dir, 'client-example.ts');
    writeFileSync(source, exampleNamed('client'));
  });

  afterAll(async () => {
    await stack?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('compiles under the repository strict settings', () => {
    const program = ts.createProgram([source], compilerOptions());
    const problems = ts
      .getPreEmitDiagnostics(program)
      .filter((diagnostic) => diagnostic.file?.fileName === source || diagnostic.file === undefined)
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    expect(problems).toEqual([]);
  });

  it('charges, and its receiver verifies every webhook up to the final one', async () => {
    const { outputText } = ts.transpileModule(readFileSync(source, 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
    });
    const script = join(dir, 'client-example.js');
    writeFileSync(
      script,
      outputText.replace(/require\("@tps\/client"\)/g, `require(${JSON.stringify(CLIENT_ENTRY)})`),
    );
    const { stdout } = await run('node', [script], {
      env: { ...process.env, BASE_URL: stack.apiUrl },
      timeout: 60_000,
    });
    const lines = stdout.trim().split('\n');
    // The acknowledgement and the first webhook race: only the webhooks' order is the contract's.
    expect(lines).toContain('charge TERMINAL_ACKNOWLEDGED (200)');
    expect(lines.filter((line) => line.startsWith('webhook '))).toEqual([
      'webhook CARD_PRESENTED (verified)',
      'webhook APPROVAL_REQUESTED (verified)',
      'webhook APPROVAL (verified)',
    ]);
  });
});
