import type { CorsOptions } from '@nestjs/common/interfaces/external/cors-options.interface';
import { REQUEST_ID_HEADER } from '@tps/http';

/**
 * CORS of the sandbox profile (contract §18): any origin may call the API from a browser, so
 * "Try it out" of /docs served behind another host or port, and an integrator's own web page,
 * reach it. Nothing rides on cookies (every request is signed in its headers), so `*` lends no
 * caller's credentials to another site. The production profile answers no preflight.
 */
export const SANDBOX_CORS: CorsOptions = {
  origin: '*',
  methods: ['GET', 'POST', 'PATCH', 'DELETE'],
  allowedHeaders: ['Authorization', 'timestamp', 'Content-Type'],
  exposedHeaders: ['Retry-After', 'Location', REQUEST_ID_HEADER],
  maxAge: 600,
};
