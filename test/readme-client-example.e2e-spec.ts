import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '@tps/testing';

/** The README's fenced block marked ```<language> example=<name>. */
function exampleNamed(language: string, name: string): string {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const match = new RegExp(`^\`\`\`${language} example=${name}\\n([\\s\\S]*?)^\`\`\`$`, 'm').exec(readme);
  if (match === null) throw new Error(`README.md has no \`\`\`${language} example=${name} block`);
  return match[1];
}

/**
 * The README shows the example the @tps/client package ships, word for word: the test that packs
 * and installs the package runs that file with plain node (client-package.e2e-spec.ts).
 */
describe('the typed client example of the README', () => {
  it('is the example the package ships, which runs with plain node', () => {
    const shipped = readFileSync(join(REPO_ROOT, 'libs/client/examples/charge-and-webhooks.mjs'), 'utf8');
    expect(exampleNamed('js', 'client')).toBe(shipped);
  });

  it('reads the sandbox from SANDBOX_URL or API_PORT, never a fixed port, and gives up on a timeout', () => {
    const example = exampleNamed('js', 'client');
    expect(example).toContain(
      'process.env.SANDBOX_URL ?? `http://localhost:${process.env.API_PORT ?? 3000}`',
    );
    expect(example).toMatch(/setTimeout\(\(\) => \{\n {2}console\.error\([^)]*\);\n {2}process\.exit\(1\);/);
    // An account of its own: the shared demo merchant's webhook secret is never rotated.
    expect(example).toContain('/sandbox/accounts');
    expect(example).not.toContain('demo-merchant');
  });
});
