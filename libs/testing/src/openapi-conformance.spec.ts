import { OpenApiConformance } from './openapi-conformance';

const errorBody = {
  type: 'object',
  required: ['code', 'message'],
  properties: { code: { type: 'string' }, message: { type: 'string' } },
};

const document = {
  openapi: '3.1.0',
  paths: {
    '/terminal/v1/print/{printJobId}': {
      get: {
        responses: {
          '200': {
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Job' } } },
          },
          '404': { content: { 'application/json': { schema: errorBody } } },
        },
      },
    },
    '/terminal/v1/{terminalSerial}/print': {
      post: {
        responses: {
          '202': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Job' } } } },
        },
      },
    },
    '/sandbox/webhook-secret': { delete: { responses: { '204': { description: 'removed' } } } },
  },
  components: {
    schemas: {
      Job: {
        type: 'object',
        required: ['printJobId', 'createdAt'],
        properties: {
          printJobId: { type: 'string', format: 'uuid' },
          createdAt: { type: 'string', format: 'date-time' },
          errorCode: { type: ['string', 'null'] },
        },
      },
    },
  },
};

const job = { printJobId: '6f1c2b4e-8d1a-4c3e-9b7a-2f5d6e7a8b9c', createdAt: '2026-11-22T08:00:00.123Z' };

describe('OpenApiConformance', () => {
  const conformance = new OpenApiConformance(document);

  it('accepts a declared status whose body matches its schema, $refs and formats included', () => {
    expect(conformance.problem('GET', `/terminal/v1/print/${job.printJobId}`, 200, JSON.stringify(job))).toBe(
      undefined,
    );
    expect(conformance.problem('POST', '/terminal/v1/SIM0000002/print', 202, JSON.stringify(job))).toBe(
      undefined,
    );
    expect(conformance.problem('DELETE', '/sandbox/webhook-secret', 204, '')).toBe(undefined);
  });

  it('refuses a status the operation does not declare', () => {
    expect(conformance.problem('GET', '/terminal/v1/print/x', 409, '{}')).toMatch(/declares no 409 answer/);
  });

  it('refuses a body off its schema: a missing field, a wrong format, a body where none is declared', () => {
    expect(
      conformance.problem('GET', '/terminal/v1/print/x', 200, JSON.stringify({ printJobId: 'x' })),
    ).toMatch(/createdAt/);
    expect(
      conformance.problem(
        'GET',
        '/terminal/v1/print/x',
        200,
        JSON.stringify({ ...job, createdAt: 'yesterday' }),
      ),
    ).toMatch(/date-time/);
    expect(conformance.problem('DELETE', '/sandbox/webhook-secret', 204, '{"gone":true}')).toMatch(/no body/);
    expect(conformance.problem('GET', '/terminal/v1/print/x', 404, 'not json')).toMatch(/not JSON/);
  });

  it('matches a literal segment before a parameter, and leaves undocumented paths alone', () => {
    // `/terminal/v1/print/print` is GET print/{printJobId}, not the Cloud form of a serial "print".
    expect(
      conformance.problem('GET', '/terminal/v1/print/print?x=1', 404, '{"code":"NF-003","message":"m"}'),
    ).toBe(undefined);
    expect(conformance.problem('POST', '/terminal/v1/async/refund', 404, 'anything')).toBe(undefined);
  });
});
