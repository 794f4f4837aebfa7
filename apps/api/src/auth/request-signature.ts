import { timingSafeEqual } from 'node:crypto';
import { ContractError } from '@tps/domain';
import { requestSignature } from '@tps/contracts';

/** Window of contract §5, in seconds either side of the real clock. */
export const TIMESTAMP_TOLERANCE_SECONDS = 300;

export interface Credentials {
  merchantId: string;
  signature: string;
}

// Scheme names are case-insensitive and separated from their token by one or more spaces (RFC 9110 §11.1).
const BASIC_CREDENTIALS = /^basic +([A-Za-z0-9+/=]+)$/i;

export function parseAuthorization(header: string | undefined): Credentials {
  const match = BASIC_CREDENTIALS.exec(header ?? '');
  if (!match)
    throw new ContractError('AUTH-001', 'Authorization must be "Basic base64(merchant_id:signature)"');
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0 || colon === decoded.length - 1) {
    throw new ContractError('AUTH-001', 'Authorization must be "Basic base64(merchant_id:signature)"');
  }
  const merchantId = decoded.slice(0, colon);
  // No merchant id holds U+0000, and PostgreSQL's text cannot: its lookup would be a 500 there.
  if (merchantId.includes('\0')) throw new ContractError('AUTH-001', 'unknown merchant or wrong signature');
  return { merchantId, signature: decoded.slice(colon + 1) };
}

export function checkTimestamp(header: string | undefined, nowSeconds: number): string {
  if (header === undefined || !/^\d{1,12}$/.test(header)) {
    throw new ContractError('AUTH-002', 'timestamp header must be Unix time in seconds');
  }
  if (Math.abs(Number(header) - nowSeconds) > TIMESTAMP_TOLERANCE_SECONDS) {
    throw new ContractError(
      'AUTH-002',
      `timestamp is more than ${TIMESTAMP_TOLERANCE_SECONDS} s from the current time`,
    );
  }
  return header;
}

export function signatureMatches(
  expectedSecret: string,
  presented: string,
  timestamp: string,
  method: string,
  path: string,
  body: Buffer,
): boolean {
  const expected = Buffer.from(requestSignature(expectedSecret, timestamp, method, path, body), 'utf8');
  const given = Buffer.from(presented, 'utf8');
  return expected.length === given.length && timingSafeEqual(expected, given);
}
