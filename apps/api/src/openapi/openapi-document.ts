import type { INestApplication } from '@nestjs/common';
import {
  DocumentBuilder,
  SwaggerModule,
  getSchemaPath,
  type OpenAPIObject,
  type OperationObject,
  type HeaderObject,
  type ParameterObject,
  type ResponseObject,
} from '@nestjs/swagger';
import {
  AuthorizationResponseDoc,
  ErrorBodyDoc,
  PrintWebhookPayloadDoc,
  SearchAnswerDoc,
  SERIAL_PATTERN,
  TransactionEventDoc,
} from '@tps/contracts/dto';
import { ERROR_CATALOGUE, type ErrorCode } from '@tps/domain';
import { REQUEST_ID_HEADER } from '@tps/http';
import { PUBLIC_EXTENSION } from '../auth/public-route.decorator';
import { TERMINAL_SERIAL_PARAM } from '../terminals/terminal-target.decorator';
import { ANY_ROUTE_ERRORS, ERROR_CODES_EXTENSION, SIGNED_ERRORS } from './api-errors.decorator';
import { ERROR_MEANINGS } from './error-meanings';
import { toOpenApi31 } from './openapi-31';
import { requestExample } from './request-examples';
import { stateEnforcedLimits } from './schema-limits';
import { SIGNATURE_SCHEME, signatureSecurityScheme } from './signature-scheme';
import { webhooks } from './webhooks';

const TAGS: ReadonlyArray<[string, string]> = [
  ['payments', 'Charge, pre-authorize, capture, re-authorize, tip, void, refund and abort, in both forms'],
  ['transaction search', "Online (the service's records) and local (the terminal's own store) search"],
  ['print', 'Print jobs on the terminal and their status'],
  [
    'sandbox',
    'Sandbox controls (sandbox profile only): fleet, cardholder, clock, deliveries, webhook secret',
  ],
  ['health', 'Liveness, without credentials'],
  ['webhooks', 'What the service sends to the receivers a merchant names'],
];

const DESCRIPTION = [
  'Card-present payments through a payment terminal (sandbox reference implementation).',
  '',
  'Every operation runs in two forms: Local Network, `/terminal/v1/...` (the terminal bound to the',
  'credentials), and Cloud, `/terminal/v1/{terminalSerial}/...`. Sync operations answer the',
  "acquirer's Authorization response; async ones answer the TERMINAL_ACKNOWLEDGED event and send",
  'later events to `events_webhook_url`. Every error answer has one body: `{type, code, message, param?}`.',
  'See the `merchantSignature` security scheme for how to sign a request.',
  '',
  "When an answer is not 2xx, decide from it alone. Only the service's own JSON 503 (TER-001, INT-002)",
  'means "not taken": nothing moved, and a retry with the same `client_transaction_id` runs it.',
  '504 TER-002 (the terminal took it, its outcome has not arrived) and 504 INT-003 (the terminal',
  'answered, the service could not store the outcome) mean "taken": a retry with the same id answers',
  'the outcome once known. 502 INT-005 and 504 INT-006 (the load balancer of the compose profile lost',
  "or never got the replica's answer), any other 5xx (another proxy's bare 502/503/504), a dropped",
  'connection or a timeout on your side mean "unknown": ask again with the same id, never a new one. A repeat is',
  'judged on the parsed body: key order, whitespace and number spelling do not make another request.',
  '',
  '"Try it out" on this page sends a fresh `client_transaction_id` in place of the example\'s on each',
  'execution, so every visitor gets a charge of their own; an id you type in its place is sent as',
  'typed, and executing it twice shows the first answer again.',
].join('\n');

/** The document's own skeleton: what no controller states. */
function skeleton(): Omit<OpenAPIObject, 'paths'> {
  const builder = new DocumentBuilder()
    .setTitle('Terminal Payment Service')
    .setDescription(DESCRIPTION)
    .setVersion('v1')
    .setOpenAPIVersion('3.1.0')
    // Every URL relative: the document works as served, whatever host, port or proxy it is reached by.
    .addServer('/', 'this sandbox: the scheme, host and port this document was served from')
    .addSecurityRequirements(SIGNATURE_SCHEME);
  for (const [name, description] of TAGS) builder.addTag(name, description);
  const document = builder.build();
  // No URL in either: the document names no host or port (it is served by every sandbox, on any
  // port), and OpenAPI wants an absolute one there. The builder insists on an e-mail address too.
  document.info.contact = { name: 'Terminal Payment Service maintainers' };
  document.info.license = { name: 'UNLICENSED' };
  return document;
}

/** The codes answered with `Retry-After` (contract §4, §13). */
const RETRY_AFTER_CODES: readonly ErrorCode[] = ['RATE-001', 'INT-002', 'INT-003', 'TRX-007'];

/** Every answer carries it (docs/contract.md, "Request ids"), so every response declares it. */
const REQUEST_ID_COMPONENT = 'RequestId';
const REQUEST_ID: HeaderObject = {
  description:
    "The request's id: the caller's own `Request-Id` when it sent a printable one of at most 128 characters, else a new one. Quote it to support: the service's log lines for the request name it.",
  required: true,
  schema: { type: 'string', maxLength: 128 },
};

/** Errors a route answers by what it is (signed or public), whatever it does. */
function sharedCodes(isPublic: boolean): readonly ErrorCode[] {
  return isPublic ? ANY_ROUTE_ERRORS : [...ANY_ROUTE_ERRORS, ...SIGNED_ERRORS];
}

function errorResponse(codes: readonly ErrorCode[]): ResponseObject {
  const listed = codes.map((code) => `- \`${code}\`: ${ERROR_MEANINGS[code]}`).join('\n');
  return {
    description: `The contract's error body, with one of these codes:\n\n${listed}`,
    content: {
      'application/json': {
        schema: {
          allOf: [
            { $ref: getSchemaPath(ErrorBodyDoc) },
            { type: 'object', properties: { code: { type: 'string', enum: [...codes] } } },
          ],
        },
        examples: Object.fromEntries(
          codes.map((code) => [
            code,
            { value: { type: ERROR_CATALOGUE[code].type, code, message: ERROR_MEANINGS[code] } },
          ]),
        ),
      },
    },
  };
}

/** The Cloud form's path parameter, shared by every route served in both forms. */
const TERMINAL_SERIAL: ParameterObject = {
  name: TERMINAL_SERIAL_PARAM,
  in: 'path',
  required: true,
  description: "Cloud form: the terminal, one of the merchant's (NF-002 otherwise)",
  schema: { type: 'string', pattern: SERIAL_PATTERN.source },
  example: 'SIM0000002',
};

const FORMS = {
  cloud: 'Cloud form',
  local: 'Local Network form: the terminal bound to the credentials',
};

/**
 * A handler served in both forms (`bothForms`) is one operation per path, which Nest names
 * `Handler[0]` and `Handler[1]`: each is named and summarised by its form, and the Cloud one gets
 * the serial parameter, which the `@Terminal()` decorator reads outside Nest's view.
 */
function nameForm(template: string, operation: OperationObject): void {
  const alias = /\[\d+\]$/;
  if (operation.operationId === undefined || !alias.test(operation.operationId)) return;
  const form = template.includes(`{${TERMINAL_SERIAL_PARAM}}`) ? 'cloud' : 'local';
  operation.operationId = operation.operationId.replace(alias, `_${form}`);
  const summary = operation.summary ?? '';
  operation.summary = summary.endsWith(')')
    ? `${summary.slice(0, -1)}, ${FORMS[form]})`
    : `${summary} (${FORMS[form]})`;
  if (form === 'cloud') {
    operation.parameters = [
      { $ref: `#/components/parameters/${TERMINAL_SERIAL_PARAM}` },
      ...(operation.parameters ?? []),
    ];
  }
}

/**
 * Adds the signature and every error response to one operation. The signature's two headers
 * (`Authorization`, `timestamp`) live in the security scheme only, never as parameters: a
 * generated client or a Postman collection then asks for no dummy value that its signing hook
 * overwrites anyway.
 */
function finishOperation(operation: OperationObject & Record<string, unknown>): void {
  const isPublic = operation[PUBLIC_EXTENSION] === true;
  const own = (operation[ERROR_CODES_EXTENSION] ?? []) as ErrorCode[];
  delete operation[PUBLIC_EXTENSION];
  delete operation[ERROR_CODES_EXTENSION];
  if (isPublic) operation.security = [];
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of [...own, ...sharedCodes(isPublic)]) {
    const { status } = ERROR_CATALOGUE[code];
    const codes = byStatus.get(status) ?? [];
    if (!codes.includes(code)) codes.push(code);
    byStatus.set(status, codes);
  }
  // A status the route answers with a body of its own (/health's and /ready's 503) keeps it.
  for (const status of Object.keys(operation.responses)) byStatus.delete(Number(status));
  const sorted = [...byStatus.entries()].sort(([a], [b]) => a - b);
  for (const [status, codes] of sorted) operation.responses[String(status)] = errorResponse(codes);
  for (const code of RETRY_AFTER_CODES) {
    if (!byStatus.get(ERROR_CATALOGUE[code].status)?.includes(code)) continue;
    (operation.responses[String(ERROR_CATALOGUE[code].status)] as ResponseObject).headers = {
      'Retry-After': {
        description: `seconds to wait before a retry (sent with ${RETRY_AFTER_CODES.join(', ')})`,
        schema: { type: 'integer', minimum: 1 },
      },
    };
  }
  for (const response of Object.values(operation.responses) as ResponseObject[]) {
    response.headers = {
      [REQUEST_ID_HEADER]: { $ref: `#/components/headers/${REQUEST_ID_COMPONENT}` },
      ...response.headers,
    };
  }
}

/** The operation's example body, which "Try it out" and samplers take as they are (request-examples.ts). */
function addRequestExample(method: string, template: string, operation: OperationObject): void {
  const body = operation.requestBody;
  const json = body === undefined || '$ref' in body ? undefined : body.content['application/json'];
  if (json === undefined) return;
  json.example = requestExample(method, template, operation.operationId ?? '');
}

/**
 * Completes what the decorators state with what holds for every route by construction: the
 * global signature guard (every route but the public ones), the shared error body and codes,
 * the validation pipe that refuses unknown fields (`additionalProperties: false`), which the
 * answers keep to as well.
 */
function finish(document: OpenAPIObject): OpenAPIObject {
  const unsigned: string[] = [];
  for (const [template, path] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(path) as Array<
      [string, OperationObject & Record<string, unknown>]
    >) {
      if (operation[PUBLIC_EXTENSION] === true) unsigned.push(`${method.toUpperCase()} ${template}`);
      nameForm(template, operation);
      finishOperation(operation);
      addRequestExample(method, template, operation);
    }
  }
  // Closed objects both ways: a request with an unknown field is refused (PAR-001), and an
  // answer or webhook with a field the document does not name fails the e2e answer checks.
  for (const schema of Object.values(document.components?.schemas ?? {})) {
    if (!('$ref' in schema) && schema.properties !== undefined) schema.additionalProperties ??= false;
  }
  stateEnforcedLimits(document.components?.schemas ?? {});
  return toOpenApi31({
    ...document,
    webhooks: webhooks(),
    components: {
      ...document.components,
      securitySchemes: { [SIGNATURE_SCHEME]: signatureSecurityScheme(unsigned) },
      parameters: {
        ...document.components?.parameters,
        [TERMINAL_SERIAL_PARAM]: TERMINAL_SERIAL,
      },
      headers: { ...document.components?.headers, [REQUEST_ID_COMPONENT]: REQUEST_ID },
    },
  });
}

/** The OpenAPI 3.1 document of the API, generated from its controllers and DTOs. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const document = SwaggerModule.createDocument(app, skeleton(), {
    extraModels: [
      ErrorBodyDoc,
      AuthorizationResponseDoc,
      SearchAnswerDoc,
      TransactionEventDoc,
      PrintWebhookPayloadDoc,
    ],
  });
  return finish(document);
}
