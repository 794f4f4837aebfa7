import { randomUUID } from 'node:crypto';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { Stack, type SignedClient } from '@tps/testing';
import { amountOf, ensureDaytime, operate, type Form, type Json, type Mode } from './payment-helpers';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

interface Example {
  route: string;
  method: string;
  template: string;
  operation: Json;
  body: Json;
}

/** A payment route of either form: `/terminal/v1[/{terminalSerial}]/{mode}/{type}`. */
const PAYMENT = /^\/terminal\/v1(\/\{terminalSerial\})?\/(sync|async)\/(\w+)$/;
const FOLLOW_UPS = ['capture', 're_authorization', 'pos_tip', 'void', 'refund'];

/**
 * The examples that cannot be taken on a fresh sandbox, with the documented answer and why.
 * Every other example is answered 2xx.
 */
function refusalOf(example: Example): { status: number; code: string; why: string } | undefined {
  const type = PAYMENT.exec(example.template)?.[3];
  if (type !== undefined && FOLLOW_UPS.includes(type))
    return {
      status: 404,
      code: 'NF-001',
      why: "its transaction_reference is an example: references are the acquirer's own, known only after a charge",
    };
  if (type === 'abort' && example.template.includes('/sync/'))
    return { status: 409, code: 'TRX-002', why: 'nothing runs on the terminal to abort' };
  if (example.template.endsWith('/card'))
    return { status: 409, code: 'TRX-006', why: 'no terminal waits for a card (only scenario 97 does)' };
  return undefined;
}

/** In the order a person trying the sandbox would go: fleet, charges, then what follows them. */
function stepOf(example: Example): number {
  const type = PAYMENT.exec(example.template)?.[3];
  if (example.template === '/sandbox/accounts') return 0;
  if (example.template.startsWith('/sandbox/terminals')) return 1;
  if (type === 'charge' || type === 'authorization' || example.template === '/authorization') return 2;
  if (example.template.endsWith('/print')) return 3;
  if (type?.startsWith('transaction_search')) return 4;
  if (type !== undefined && FOLLOW_UPS.includes(type)) return 5;
  if (type === 'abort') return 6;
  if (example.template === '/sandbox/conformance-runs') return 7;
  // Last: it moves the merchant's clock forward.
  return 8;
}

describe('every request example of the served document, sent as it is', () => {
  let stack: Stack;
  let client: SignedClient;
  let document: Json;
  let examples: Example[];
  let missing: string[];

  beforeAll(async () => {
    stack = await Stack.start();
    client = stack.client();
    document = (await (await fetch(`${stack.apiUrl}/openapi.json`)).json()) as Json;
    examples = [];
    missing = [];
    for (const [template, item] of Object.entries(document.paths as Record<string, Json>)) {
      for (const method of METHODS.filter((m) => item[m]?.requestBody !== undefined)) {
        const operation = item[method] as Json;
        const route = `${method.toUpperCase()} ${template}`;
        const json = operation.requestBody.content['application/json'] as Json | undefined;
        if (json?.example === undefined) missing.push(route);
        else examples.push({ route, method: method.toUpperCase(), template, operation, body: json.example });
      }
    }
    examples.sort((a, b) => stepOf(a) - stepOf(b));
    await ensureDaytime(client);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  /** The path with each parameter set to its own example, as "Try it out" fills it in. */
  function pathOf(example: Example): string {
    const parameters = (example.operation.parameters as Json[]).map((p) =>
      p.$ref === undefined ? p : document.components.parameters[String(p.$ref).split('/').pop() as string],
    );
    return example.template.replace(/\{(\w+)\}/g, (_, name: string) => {
      const parameter = parameters.find((p) => p.in === 'path' && p.name === name);
      const value: unknown = parameter?.example ?? parameter?.schema?.example;
      if (typeof value !== 'string') throw new Error(`${example.route}: no example for {${name}}`);
      return value;
    });
  }

  it('gives every operation that takes a body an example, valid by its own schema', () => {
    expect(missing).toEqual([]);
    expect(examples.length).toBeGreaterThan(40);
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(document, 'openapi.json');
    const invalid = examples.flatMap((example) => {
      const validate = ajv.compile({
        $ref: `openapi.json${example.operation.requestBody.content['application/json'].schema.$ref}`,
      });
      return validate(example.body) ? [] : [`${example.route}: ${ajv.errorsText(validate.errors)}`];
    });
    expect(invalid).toEqual([]);
    // Nothing a sandbox cannot reach: a webhook URL, where there is one, is on the sandbox's machine.
    for (const example of examples) {
      for (const url of JSON.stringify(example.body).match(/https?:\/\/[^"]+/g) ?? []) {
        expect([example.route, new URL(url).hostname]).toEqual([example.route, '127.0.0.1']);
      }
    }
  });

  it('gets the documented answer for each, in order: 2xx, or the 4xx a fresh sandbox must give', async () => {
    const answers: string[] = [];
    const expected: string[] = [];
    for (const example of examples) {
      const path = pathOf(example);
      const payment = PAYMENT.exec(example.template);
      // A payment waits for the terminal to be free, and an async one for its end, before the next.
      const answer =
        payment !== null && payment[3] !== 'abort'
          ? (
              await operate(
                client,
                payment[1] ? 'cloud' : 'local',
                payment[2] as Mode,
                payment[3],
                example.body,
              )
            ).response
          : await client.send<Json>(example.method, path, JSON.stringify(example.body));
      const refusal = refusalOf(example);
      const two = `${example.route}: ${answer.status} ${String(answer.body.code ?? '')}`;
      answers.push(
        refusal === undefined && answer.status >= 200 && answer.status < 300 ? `${example.route}: 2xx` : two,
      );
      expected.push(
        refusal === undefined
          ? `${example.route}: 2xx`
          : `${example.route}: ${refusal.status} ${refusal.code}`,
      );
    }
    expect(answers).toEqual(expected);
  });

  it('takes each follow-up example as it is once its transaction_reference is one of your own', async () => {
    const followUps = examples.filter((e) => FOLLOW_UPS.includes(PAYMENT.exec(e.template)?.[3] ?? ''));
    expect(followUps.length).toBe(18);
    for (const example of followUps) {
      const [, cloud, mode, type] = PAYMENT.exec(example.template) as RegExpExecArray;
      const form: Form = cloud ? 'cloud' : 'local';
      const first = type === 'capture' || type === 're_authorization' ? 'authorization' : 'charge';
      const made = await operate(client, form, 'sync', first, {
        client_transaction_id: randomUUID(),
        amount: amountOf(50_000),
      });
      expect([example.route, made.reference]).toEqual([example.route, expect.any(String)]);
      // The same client_transaction_id as the example: its 404 left no record (contract, Part II).
      const body = { ...example.body, transaction_reference: made.reference };
      const { response } = await operate(client, form, mode as Mode, type, body);
      expect([example.route, response.status]).toEqual([example.route, 200]);
    }
  });
});
