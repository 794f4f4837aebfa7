import type { IncomingMessage } from 'node:http';
import { ContractError } from '@tps/domain';
import { checkTimestamp, parseAuthorization, signatureMatches } from '../auth/request-signature';
import type { MerchantRepository } from '../auth/merchant.repository';
import { refusePublishedCredentials } from '../auth/published-credentials';
import type { ApiConfig } from '../config/api-config';

/**
 * The merchant a `listen` upgrade is signed by, as every route signs (contract §5): a GET of the
 * request target with an empty body. Throws the contract's AUTH errors otherwise (AUTH-004 for a
 * hosted sandbox's published demo credentials).
 */
export async function listeningMerchant(
  request: IncomingMessage,
  merchants: MerchantRepository,
  config: ApiConfig,
): Promise<string> {
  const header = (name: string): string | undefined => {
    const value = request.headers[name];
    return typeof value === 'string' ? value : undefined;
  };
  const credentials = parseAuthorization(header('authorization'));
  const timestamp = checkTimestamp(header('timestamp'), Math.floor(Date.now() / 1000));
  const merchant = await merchants.findById(credentials.merchantId);
  if (
    merchant === null ||
    !signatureMatches(
      merchant.secretKey,
      credentials.signature,
      timestamp,
      'GET',
      request.url ?? '',
      Buffer.alloc(0),
    )
  ) {
    throw new ContractError('AUTH-001', 'unknown merchant or wrong signature');
  }
  // Listening takes the merchant's webhooks: never with credentials anyone can sign with.
  refusePublishedCredentials(config, merchant, undefined);
  return merchant.merchantId;
}
