import { Type } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';

/**
 * The retention settings both apps read (docs/contract.md, "Retention"): the service purges its
 * transactions and print jobs by them, and each simulator process the records of the terminals it
 * hosts, never for less long than the service keeps its own.
 */
export class RetentionSettings {
  /** What is older than this is purged: transactions with all that hangs on them, print jobs. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  RETENTION_DAYS = 90;

  /** How often a sweep runs: in one replica of the service, in each simulator process. */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  RETENTION_SWEEP_INTERVAL_MS = 3_600_000;

  /** Transactions removed per write of a sweep: each write stays a few milliseconds long. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  RETENTION_BATCH = 100;
}
