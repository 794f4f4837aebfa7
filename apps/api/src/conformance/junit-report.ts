import type { RunReport } from './conformance-report';

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/** Escapes text for an attribute or element, and drops what XML 1.0 cannot carry at all. */
function xml(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- the control characters XML 1.0 forbids
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
      .replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c)
  );
}

/**
 * A run as JUnit XML (contract §17), the format CI report viewers read: one testsuite, one
 * testcase per case, a failure element carrying what was observed and the hint. A running run
 * lists the cases decided so far.
 */
export function junitReport(run: RunReport): string {
  const cases = run.cases.map((c) => {
    const open = `    <testcase classname="conformance" name="${xml(c.name)}">`;
    const detail = `rule: ${c.rule}\nexpected: ${c.expected}\nobserved: ${c.observed}\nhint: ${c.hint}`;
    const body =
      c.skipped === true
        ? `      <skipped message="${xml(c.observed)}"/>`
        : c.passed
          ? `      <system-out>${xml(detail)}</system-out>`
          : `      <failure message="${xml(c.observed)}" type="${xml(c.name)}">${xml(detail)}</failure>`;
    return `${open}\n${body}\n    </testcase>`;
  });
  const suite = `name="webhook receiver conformance: ${xml(run.url)}" tests="${run.cases.length}" failures="${run.score.failed}" errors="0" skipped="${run.score.skipped}" timestamp="${xml(run.started_at)}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="conformance run ${xml(run.id)}" tests="${run.cases.length}" failures="${run.score.failed}" skipped="${run.score.skipped}">`,
    `  <testsuite ${suite}>`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
