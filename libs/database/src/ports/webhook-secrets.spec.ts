import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { STORES, TestStore } from '@tps/testing';
import { closeDataSource } from '../close-data-source';
import { dataSourceOptions } from '../data-source-options';
import { openDataSource } from '../open-data-source';
import { openSerialWriter } from '../open-serial-writer';
import type { SerialWriter } from '../serial-writer';
import { portsOf } from '.';
import type { WebhookSecrets } from './webhook-secrets';

const UNTIL = '2026-12-01T00:00:00.000Z';

describe.each(STORES)('WebhookSecrets on %s', (kind) => {
  let dir: string;
  let store: TestStore;
  let reads: DataSource;
  let writer: SerialWriter;
  let secrets: WebhookSecrets;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tps-webhook-secrets-'));
    store = new TestStore(kind, dir);
    reads = await openDataSource(
      dataSourceOptions({ url: await store.url('secrets'), entities: [], migrations: [] }),
    );
    await reads.query(
      'CREATE TABLE merchants (merchant_id varchar(64) PRIMARY KEY, webhook_secret varchar(255), ' +
        'previous_webhook_secret varchar(255), previous_webhook_secret_until varchar(32))',
    );
    writer = await openSerialWriter(reads);
    secrets = portsOf(reads).webhookSecrets(writer);
  });

  afterAll(async () => {
    await writer.onApplicationShutdown();
    await closeDataSource(reads);
    await store.drop();
    rmSync(dir, { recursive: true, force: true });
  });

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
