import { parseArgs } from 'node:util';

export const USAGE = 'usage: npm run listen -- --forward-to LOCAL_URL [--sandbox SANDBOX_URL]\n';

export type Invocation =
  { kind: 'run'; forwardTo: string; sandbox?: string } | { kind: 'usage'; problem: string };

/** Reads the command line of `listen` (without node and the script). */
export function parseInvocation(argv: string[]): Invocation {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { 'forward-to': { type: 'string' }, sandbox: { type: 'string' } },
    }));
  } catch (error) {
    return { kind: 'usage', problem: error instanceof Error ? error.message : String(error) };
  }
  const forwardTo = values['forward-to'];
  if (forwardTo === undefined) return { kind: 'usage', problem: 'name the local URL with --forward-to' };
  let url: URL;
  try {
    url = new URL(forwardTo);
  } catch {
    return { kind: 'usage', problem: `"${forwardTo}" is not an absolute URL` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { kind: 'usage', problem: `"${forwardTo}" is not an http or https URL` };
  }
  return { kind: 'run', forwardTo, ...(values.sandbox === undefined ? {} : { sandbox: values.sandbox }) };
}
