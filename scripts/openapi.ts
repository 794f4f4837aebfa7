/**
 * Writes the API's OpenAPI document without serving it, for the linters and client generators:
 *   npm run openapi -- dist/openapi.json
 * The app is built on an in-memory database, unseeded, in the sandbox profile (every route).
 */
import { writeFileSync } from 'node:fs';
import { createApi } from '../apps/api/src/bootstrap';
import { validateApiConfig } from '../apps/api/src/config/api-config';
import { buildOpenApiDocument } from '../apps/api/src/openapi/openapi-document';

async function main(): Promise<void> {
  const target = process.argv[2] ?? 'dist/openapi.json';
  const config = validateApiConfig({ DATABASE_URL: 'sqlite::memory:', SEED: 'false', PROFILE: 'sandbox' });
  const app = await createApi(config, { logger: false });
  try {
    writeFileSync(target, `${JSON.stringify(buildOpenApiDocument(app), null, 2)}\n`);
  } finally {
    await app.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
