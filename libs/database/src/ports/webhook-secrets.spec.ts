import type { DataSource } from 'typeorm';
import { STORES, type TestStore } from '@tps/testing';
import { openPortStore, type PortStore } from '../testing/port-store';
import { portsOf } from '.';
import type { WebhookSecrets } from './webhook-secrets';

const UNTIL = '2026-12-01T00:00:00.000Z';

describe.each(STORES)('WebhookSecrets on %s', (kind) => {
  let opened: PortStore;
  let store: TestStore;
  let reads: DataSource;
  let secrets: WebhookSecrets;

  beforeAll(async () => {
    opened = await openPortStore(
      kind,
      'secrets',
      'CREATE TABLE merchants (merchant_id varchar(64) PRIMARY KEY, webhook_secret varchar(255), ' +
        'previous_webhook_secret varchar(255), previous_webhook_secret_until varchar(32))',
    );
    ({ store, reads } = opened);
    secrets = portsOf(reads).webhookSecrets(opened.writer);
  });

  afterAll(() => opened.close());

  beforeEach(async () => {
    await reads.query('DELETE FROM merchants');
    await store.execute(
      'secrets',
      'INSERT INTO merchants (merchant_id, webhook_secret) VALUES (?, ?), (?, NULL)',
      ['signing', 'sealed-old', 'unsigned'],
    );
  });

  const stored = (merchantId: string) =>
    store.rows(
      'secrets',
      'SELECT webhook_secret, previous_webhook_secret, previous_webhook_secret_until FROM merchants WHERE merchant_id = ?',
      [merchantId],
    );

  it('keeps the secret it replaces signing until the end of the overlap, and resolves that end', async () => {
    expect(await secrets.rotate('signing', 'sealed-new', UNTIL)).toBe(UNTIL);
    expect(await stored('signing')).toEqual([
      {
        webhook_secret: 'sealed-new',
        previous_webhook_secret: 'sealed-old',
        previous_webhook_secret_until: UNTIL,
      },
    ]);
  });

  it('keeps no overlap when there was no secret to keep', async () => {
    expect(await secrets.rotate('unsigned', 'sealed-new', UNTIL)).toBeNull();
    expect(await stored('unsigned')).toEqual([
      { webhook_secret: 'sealed-new', previous_webhook_secret: null, previous_webhook_secret_until: null },
    ]);
  });
});
