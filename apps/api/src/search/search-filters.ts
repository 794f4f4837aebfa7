import { DEFAULT_SEARCH_LIMIT, type OnlineTransactionSearchDto } from '@tps/contracts/dto';
import type { SearchFilters } from '@tps/contracts';

/** The validated body of a search as the filters both searches apply (contract §7). */
export function searchFilters(body: OnlineTransactionSearchDto): SearchFilters {
  return {
    clientTransactionId: body.client_transaction_id,
    transactionReference: body.transaction_reference,
    status: body.status,
    operationType: body.operation_type,
    fromMs: body.from === undefined ? undefined : Date.parse(body.from),
    toMs: body.to === undefined ? undefined : Date.parse(body.to),
    terminalSerial: body.terminal_serial,
    limit: body.limit ?? DEFAULT_SEARCH_LIMIT,
    cursor: body.cursor,
  };
}
