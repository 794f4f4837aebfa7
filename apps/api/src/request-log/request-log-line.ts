import type { Request } from 'express';
import type { AnsweredRequest } from '@tps/http';
import { requestSpanOf, traceFieldsOfSpan } from '@tps/observability';
import type { MerchantEntity } from '../auth/merchant.entity';
import { SERIAL_PATTERN } from '@tps/contracts/dto';
import { TERMINAL_SERIAL_PARAM } from '../terminals/terminal-target.decorator';

/** Only well-formed ids reach a log line: a caller's unchecked input never does. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Requests no route matched: never the raw path in the route field, which a caller chooses. */
const UNROUTED = '(unrouted)';

/**
 * The fields of one request's log line (README, "Logs"): ids an operator filters
 * on, never a header or a body beyond the transaction's id; `trace_id` and `span_id` lead to the
 * request's trace (contract, "Traces").
 */
export function requestLogLine(answered: AnsweredRequest, request: Request): Record<string, unknown> {
  const route = answered.route ?? UNROUTED;
  const merchant = (request as Request & { merchant?: MerchantEntity }).merchant;
  const serial: unknown = (request.params as Record<string, unknown> | undefined)?.[TERMINAL_SERIAL_PARAM];
  const body: unknown = request.body;
  const clientTransactionId =
    typeof body === 'object' && body !== null
      ? (body as Record<string, unknown>).client_transaction_id
      : undefined;
  const span = requestSpanOf(request);
  return {
    msg: `${answered.method} ${route} ${answered.status} ${answered.durationMs} ms`,
    request_id: answered.requestId,
    method: answered.method,
    route,
    status: answered.status,
    duration_ms: answered.durationMs,
    merchant_id: merchant?.merchantId,
    terminal_serial: typeof serial === 'string' && SERIAL_PATTERN.test(serial) ? serial : undefined,
    client_transaction_id:
      typeof clientTransactionId === 'string' && UUID.test(clientTransactionId)
        ? clientTransactionId
        : undefined,
    ...(span === undefined ? {} : traceFieldsOfSpan(span)),
  };
}
