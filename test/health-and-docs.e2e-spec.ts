import { Stack } from '@tps/testing';

describe('health and OpenAPI, without credentials', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start();
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('reports the API up with its database and linked terminals', async () => {
    const response = await fetch(`${stack.apiUrl}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: 'up',
      database: { state: 'up', rtt_ms: expect.any(Number) },
      linked_terminals: 3,
      simulator: 'connected',
      control_link: {
        share: 'fleet',
        holder: { instance: expect.stringMatching(/^[0-9a-f]{12}$/), epoch: 1, since: expect.any(String) },
        links_last_minute: 1,
        flapping: false,
        refused_last_minute: 0,
        refused: [],
      },
      pid: stack.api.pid,
    });
  });

  it('reports the simulator up with the terminals it hosts', async () => {
    const response = await fetch(`${stack.simulator?.url}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: 'up',
      database: 'up',
      service: 'connected',
      hosted_terminals: 3,
      linked_terminals: 3,
      queued_events: 0,
      share: { id: 'fleet', instance: expect.stringMatching(/^[0-9a-f]{12}$/), state: 'holder', epoch: 1 },
    });
  });

  it('serves the OpenAPI document built from the DTOs, and the browsable docs', async () => {
    const document = (await (await fetch(`${stack.apiUrl}/openapi.json`)).json()) as {
      openapi: string;
      paths: Record<string, unknown>;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/terminal/v1/async/charge', '/terminal/v1/{terminalSerial}/async/charge']),
    );
    expect(Object.keys(document.components.schemas.AsyncChargeDto.properties ?? {})).toEqual(
      expect.arrayContaining(['amount', 'client_transaction_id', 'metadata', 'events_webhook_url']),
    );
    const docs = await fetch(`${stack.apiUrl}/docs`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('swagger');
  });
});
