import { Catch, HttpException, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { Response } from 'express';
import {
  ContractError,
  FollowableOutcomeUnknownError,
  SecretKeyMissingError,
  StorageUnavailableError,
} from '@tps/domain';
import { UnknownSecretKeyError, isStorageFailure } from '@tps/database';
import { requestIdOf } from './request-id';

interface BodyParserError {
  type?: string;
  status?: number;
}

/** Errors that Express's body parser raises before any of our code runs. */
function fromBodyParser(error: unknown): ContractError | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { type } = error as BodyParserError;
  if (type === 'entity.too.large') return new ContractError('PAR-005', 'request body is larger than 1 MiB');
  if (type === 'entity.parse.failed') return new ContractError('PAR-001', 'request body is not valid JSON');
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return new ContractError('PAR-001', 'request body encoding is not supported');
  }
  return undefined;
}

/** Turns every error into the contract's one body shape; nothing internal ever leaks. */
export function toContractError(error: unknown): ContractError {
  if (error instanceof ContractError) return error;
  if (isStorageFailure(error)) return new StorageUnavailableError(error);
  if (error instanceof UnknownSecretKeyError) return new SecretKeyMissingError(error.keyId, error);
  // Nest hands on an error of the body parser wrapped in an HttpException, its cause the original:
  // a refusal of the body's inspection (json-body.ts) or one of the parser's own.
  const cause = error instanceof HttpException ? error.cause : undefined;
  if (cause instanceof ContractError) return cause;
  const parserError = fromBodyParser(cause ?? error);
  if (parserError) return parserError;
  if (error instanceof HttpException) {
    const status = error.getStatus();
    if (status === 404) return new ContractError('NF-000', 'no such route');
    if (status === 413) return new ContractError('PAR-005', 'request body is larger than 1 MiB');
    if (status === 429) return new ContractError('RATE-001', 'too many requests');
    if (status === 405) return new ContractError('NF-000', 'no such route for this method');
    if (status >= 400 && status < 500) return new ContractError('PAR-001', 'malformed request');
  }
  return new ContractError('INT-001', 'internal error');
}

@Catch()
export class ContractExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    const error = toContractError(exception);
    // The operator's to fix: the log line names the cause (for INT-004, the missing key id).
    if (error.code === 'INT-001' || error.code === 'INT-004') {
      const detail = exception instanceof Error ? (exception.stack ?? exception.message) : String(exception);
      // The id the answer carries (contract, "Request ids"): support finds this line from it.
      const id = requestIdOf(response);
      this.logger.error({ msg: id === undefined ? detail : `request ${id}: ${detail}`, request_id: id });
    }
    if (response.headersSent) return;
    if (error.retryAfterSeconds !== undefined)
      response.setHeader('Retry-After', String(error.retryAfterSeconds));
    if (error instanceof FollowableOutcomeUnknownError) response.setHeader('Location', error.location);
    // The answer's own id in its body too (docs/contract.md, "Request ids").
    response.status(error.status).json(error.toBody(requestIdOf(response)));
  }
}
