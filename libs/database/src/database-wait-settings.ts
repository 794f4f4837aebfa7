import { Type } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { RetentionSettings } from './retention-settings';

/**
 * How long each wait on PostgreSQL may last, for both apps, beside the retention settings they
 * share (docs/contract.md, "Every wait bounded"). Past one, the wait is a storage failure: the
 * caller gets 503 INT-002 where nothing can have been written, 504 INT-003 where it is unknown.
 */
export class DatabaseWaitSettings extends RetentionSettings {
  /** Getting a connection: from the pool when all are in use, or a new one from the server. */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(60_000)
  DATABASE_ACQUIRE_TIMEOUT_MS = 3000;

  /** One statement on the server (`statement_timeout`); no statement of ours runs that long. */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(600_000)
  DATABASE_STATEMENT_TIMEOUT_MS = 10_000;

  /** Waiting for a row's lock held by another write (`lock_timeout`). */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(600_000)
  DATABASE_LOCK_TIMEOUT_MS = 5000;
}

/** The waits of DatabaseWaitSettings, as the data source options take them. */
export interface DatabaseWaits {
  acquireTimeoutMs: number;
  statementTimeoutMs: number;
  lockTimeoutMs: number;
}

export function databaseWaits(settings: DatabaseWaitSettings): DatabaseWaits {
  return {
    acquireTimeoutMs: settings.DATABASE_ACQUIRE_TIMEOUT_MS,
    statementTimeoutMs: settings.DATABASE_STATEMENT_TIMEOUT_MS,
    lockTimeoutMs: settings.DATABASE_LOCK_TIMEOUT_MS,
  };
}
