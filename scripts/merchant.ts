/**
 * Provisions a merchant, its secret key and its terminals: how the production profile, which
 * never seeds the demo credentials, gets its first merchant.
 *   npm run merchant -- add acme --terminal TPV0000001 --bound TPV0000001
 * Reads DATABASE_URL, SECRETS_KEY and SECRETS_KEY_FILE like the API (default sqlite:data/api.sqlite,
 * the sandbox's local key beside it): give it the API's own. Prints the new secret once.
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import {
  API_MIGRATIONS,
  SerialWriter,
  dataSourceOptions,
  installSecretKeyring,
  openDataSource,
  closeDataSource,
} from '@tps/database';
import { API_ENTITIES } from '../apps/api/src/api-entities';
import { MerchantEntity } from '../apps/api/src/auth/merchant.entity';
import { MerchantRepository } from '../apps/api/src/auth/merchant.repository';
import { validateApiConfig } from '../apps/api/src/config/api-config';
import { chooseSecretKeyring } from '../apps/api/src/secrets/secrets-keyring';
import { newTerminal } from '../apps/api/src/seed/sandbox-seed';
import { TerminalRepository } from '../apps/api/src/terminals/terminal.repository';

const USAGE = 'usage: npm run merchant -- add MERCHANT_ID [--terminal SERIAL]... [--bound SERIAL]\n';

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { terminal: { type: 'string', multiple: true, default: [] }, bound: { type: 'string' } },
  });
  const [command, merchantId] = positionals;
  if (command !== 'add' || merchantId === undefined || !/^[A-Za-z0-9_-]{1,64}$/.test(merchantId)) {
    process.stderr.write(USAGE);
    process.exit(2);
  }
  const serials = [...new Set([...values.terminal, ...(values.bound === undefined ? [] : [values.bound])])];
  const config = validateApiConfig(process.env);
  // The secret key is sealed at rest under the API's keys (docs/contract.md, "Secrets at rest").
  installSecretKeyring(chooseSecretKeyring(config).keyring);
  const dataSource = await openDataSource(
    dataSourceOptions({
      url: config.DATABASE_URL,
      entities: API_ENTITIES,
      migrations: API_MIGRATIONS,
    }),
  );
  try {
    const writer = new SerialWriter(dataSource);
    const merchants = new MerchantRepository(writer, dataSource);
    const terminals = new TerminalRepository(writer, dataSource);
    if ((await merchants.findById(merchantId)) !== null)
      throw new Error(`merchant ${merchantId} already exists`);
    for (const serial of serials) {
      if ((await terminals.findBySerial(serial)) !== null)
        throw new Error(`terminal ${serial} already exists`);
    }
    const secretKey = randomBytes(32).toString('hex');
    const merchant = Object.assign(new MerchantEntity(), {
      merchantId,
      secretKey,
      boundTerminalSerial: values.bound ?? null,
      webhookSecret: null,
      clockOffsetSeconds: 0,
    });
    const fleet = serials.map((serial) => newTerminal(serial, merchantId, 'realistic', 'front-desk'));
    if (!(await merchants.insertWithTerminals(merchant, fleet)))
      throw new Error(`merchant ${merchantId} or one of its terminals was added meanwhile`);
    process.stdout.write(
      `${JSON.stringify({ merchant_id: merchantId, secret_key: secretKey, terminals: serials })}\n`,
    );
  } finally {
    await closeDataSource(dataSource);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
