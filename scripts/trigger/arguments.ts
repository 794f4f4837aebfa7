import { parseArgs } from 'node:util';
import { scenarioNamed, type Scenario } from './scenarios';

export const USAGE =
  'usage: npm run trigger -- <scenario> [--terminal SERIAL] [--async [--webhook-url URL]] [--sandbox SANDBOX_URL]\n' +
  '       npm run trigger -- --list\n';

export type Invocation =
  | { kind: 'list' }
  | {
      kind: 'run';
      scenario: Scenario;
      terminal?: string;
      async: boolean;
      /** The charge's `events_webhook_url`: its events are then delivered (contract §6). */
      webhookUrl?: string;
      sandbox?: string;
    }
  | { kind: 'usage'; problem: string };

/** Reads the command line of `trigger` (without node and the script). */
export function parseInvocation(argv: string[]): Invocation {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        list: { type: 'boolean' },
        async: { type: 'boolean' },
        terminal: { type: 'string' },
        sandbox: { type: 'string' },
        'webhook-url': { type: 'string' },
      },
    });
  } catch (error) {
    return { kind: 'usage', problem: error instanceof Error ? error.message : String(error) };
  }
  const { values, positionals } = parsed;
  if (values.list === true) {
    return positionals.length === 0
      ? { kind: 'list' }
      : { kind: 'usage', problem: '--list takes no scenario' };
  }
  if (positionals.length !== 1) return { kind: 'usage', problem: 'name one scenario' };
  const scenario = scenarioNamed(positionals[0]);
  if (scenario === undefined) {
    return { kind: 'usage', problem: `unknown scenario "${positionals[0]}" (see --list)` };
  }
  if (values.terminal !== undefined && !/^[A-Za-z0-9_-]{1,32}$/.test(values.terminal)) {
    return { kind: 'usage', problem: `"${values.terminal}" is not a terminal serial` };
  }
  const webhookUrl = values['webhook-url'];
  if (webhookUrl !== undefined && values.async !== true) {
    return { kind: 'usage', problem: '--webhook-url goes with --async (a sync charge has no webhooks)' };
  }
  return {
    kind: 'run',
    scenario,
    async: values.async === true,
    ...(webhookUrl === undefined ? {} : { webhookUrl }),
    ...(values.terminal === undefined ? {} : { terminal: values.terminal }),
    ...(values.sandbox === undefined ? {} : { sandbox: values.sandbox }),
  };
}
