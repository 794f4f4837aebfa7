import { createHash } from 'node:crypto';
import type { AmountCentavos, OperationMode, OperationType } from '@tps/domain';
import type { MerchantEntity } from '../auth/merchant.entity';
import type { AuthenticatedRequest } from '../auth/merchant-auth.guard';
import type { RequestForm } from '../terminals/request-form';
import { canonicalJson } from './canonical-json';

/** One payment operation as the controllers hand it to the use case, whatever its form. */
export interface OperationRequest {
  merchant: MerchantEntity;
  form: RequestForm;
  /** The path's serial in Cloud form; absent in Local form. */
  serial?: string;
  type: OperationType;
  mode: OperationMode;
  clientTransactionId: string;
  /** Absent where the request may leave it out (capture, refund) or has none (void, pos_tip). */
  amount?: AmountCentavos;
  tip?: number;
  metadata: Record<string, string>;
  eventsWebhookUrl: string;
  transactionReference?: string;
  /** Abort only: the operation to abort; absent, whatever runs on the terminal. */
  targetClientTransactionId?: string;
  fingerprint: string;
  /** The request's trace, carried down the link with the order (contract, "Traces"). */
  traceparent?: string;
}

/**
 * The idempotency fingerprint of contract §5: method, path and the body as parsed, in its
 * canonical form (contract §19: key order, whitespace and number spelling make no other request).
 * A request without a body and one with an empty object are different requests.
 */
export function requestFingerprint(request: AuthenticatedRequest): string {
  const hasBody = request.rawBody !== undefined && request.rawBody.length > 0;
  return createHash('sha256')
    .update(`${request.method}\n${request.originalUrl}\n`)
    .update(hasBody ? canonicalJson(request.body) : '')
    .digest('hex');
}
