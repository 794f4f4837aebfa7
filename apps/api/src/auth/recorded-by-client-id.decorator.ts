import { SetMetadata } from '@nestjs/common';

export const RECORDED_BY_CLIENT_ID = 'tps:recorded-by-client-id';

/**
 * Marks a route whose request is recorded under its client_transaction_id, so that an earlier
 * attempt with the same id may already have reached the terminal: a storage failure before this
 * request is recorded cannot be answered "not taken" (contract §19).
 */
export const RecordedByClientId = (): MethodDecorator => SetMetadata(RECORDED_BY_CLIENT_ID, true);
