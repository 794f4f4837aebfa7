import type { ServedRoute } from '../metrics/api-metrics';

/**
 * The routes SwaggerModule serves for `/docs` and the documents (bootstrap.ts), which are not
 * controllers' and so not found by ServedRoutes: their 5xx series start at zero too.
 */
export const DOCUMENT_ROUTES: readonly ServedRoute[] = [
  '/docs',
  '/docs/',
  '/docs/index.html',
  '/docs/swagger-ui-init.js',
  '/docs/LICENSE',
  '/openapi.json',
  '/openapi.yaml',
].map((route) => ({ method: 'GET', route }));
