import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';
import type { Profile } from '@tps/delivery';

type Middleware = (
  request: IncomingMessage,
  response: ServerResponse,
  next: (error?: unknown) => void,
) => void;
type Directives = Record<string, string[]>;

/** A JSON answer loads nothing and is framed by no page (docs/contract.md, "Security headers"). */
const JSON_POLICY: Directives = { defaultSrc: ["'none'"], frameAncestors: ["'none'"] };

/**
 * Swagger UI at /docs: its scripts, stylesheet and init script are files of this origin; its
 * page has inline <style> blocks, its icons are data: URIs, and "Try it out" fetches this origin.
 */
const DOCS_POLICY: Directives = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  frameAncestors: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'none'"],
};

const DOCS_PATH = /^\/docs(?:[/?]|$)/;

function helmetWith(directives: Directives, profile: Profile): Middleware {
  return helmet({
    contentSecurityPolicy: { useDefaults: false, directives },
    referrerPolicy: { policy: 'no-referrer' },
    xFrameOptions: { action: 'deny' },
    // Only production is promised TLS in front; a sandbox may be plain HTTP on a laptop.
    strictTransportSecurity:
      profile === 'production' ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  });
}

/**
 * Helmet's headers on every answer, the policy chosen by path; the console page replaces the
 * policy with its own (console-page.controller.ts). Both sets are built once: a request costs a
 * prefix test and a dozen header writes.
 */
export function securityHeaders(profile: Profile): Middleware {
  const forJson = helmetWith(JSON_POLICY, profile);
  const forDocs = helmetWith(DOCS_POLICY, profile);
  return (request, response, next) =>
    (DOCS_PATH.test(request.url ?? '') ? forDocs : forJson)(request, response, next);
}
