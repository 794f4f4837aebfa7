import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  SealedSecrets,
  UnknownSecretKeyError,
  secretKeyring,
  storeOf,
  type SealedChange,
} from '@tps/database';
import { SEALED_MERCHANT_COLUMNS } from '../auth/merchant.entity';

/** Merchants re-sealed per write: each write stays short, so it never holds the write path long. */
export const RESEAL_BATCH = 50;
/** The pause between two batches, leaving the write queue to the requests. */
const RESEAL_PAUSE_MS = 20;
const SEALED_COLUMNS = Object.keys(SEALED_MERCHANT_COLUMNS) as Array<keyof typeof SEALED_MERCHANT_COLUMNS>;

/**
 * At every start, in the background: seals the secrets still in clear (rows written before secrets
 * were sealed) and re-seals those sealed under another key than the first of SECRETS_KEY (a key
 * rotation), a small batch per write (contract, "Secrets at rest"). Each value is replaced only if
 * it is still the one read, so a secret changed meanwhile, or a replica doing the same pass, is
 * never overwritten. On SQLite the log is then checkpointed and truncated: with secure_delete the
 * file keeps no old value, and the log must not either.
 */
@Injectable()
export class SecretResealer implements OnApplicationBootstrap {
  private readonly logger = new Logger('Secrets');

  constructor(
    private readonly reads: DataSource,
    private readonly secrets: SealedSecrets,
  ) {}

  onApplicationBootstrap(): void {
    void this.resealAll().catch((error: unknown) => {
      // A storage failure midway: the next start goes on where this one stopped.
      this.logger.error(`re-sealing stopped: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  /** Seals every secret not sealed under the current key. */
  private async resealAll(): Promise<void> {
    const keyring = secretKeyring();
    const prefix = keyring.currentPrefix();
    let after = '';
    let replaced = 0;
    const unopened = new Set<string>();
    for (;;) {
      const rows = await this.secrets.notBeginningWith(prefix, after, RESEAL_BATCH);
      if (rows.length === 0) break;
      after = rows[rows.length - 1].key;
      const changes: SealedChange[] = [];
      for (const row of rows) {
        for (const column of SEALED_COLUMNS) {
          const stored = row.values[column];
          if (stored === null || keyring.isCurrent(stored)) continue;
          try {
            const purpose = SEALED_MERCHANT_COLUMNS[column];
            changes.push({
              key: row.key,
              column,
              from: stored,
              to: keyring.seal(keyring.open(stored, purpose), purpose),
            });
          } catch (error) {
            // A key this process lacks is reported at start-up, with what to do (UnknownKeyCheck).
            if (error instanceof UnknownSecretKeyError) continue;
            unopened.add(error instanceof Error ? error.message : String(error));
          }
        }
      }
      replaced += await this.secrets.replace(changes);
      if (rows.length < RESEAL_BATCH) break;
      await sleep(RESEAL_PAUSE_MS);
    }
    for (const message of unopened) this.logger.error(`a secret could not be re-sealed: ${message}`);
    if (replaced > 0) {
      this.logger.log(`${replaced} secrets sealed under key ${keyring.writeKeyId}`);
      await this.truncateLog();
    }
  }

  /** The database's files must not keep the values replaced (SQLite's log, until truncated). */
  private async truncateLog(): Promise<void> {
    if (!(await storeOf(this.reads.options).forgetReplaced(this.reads)))
      this.logger.warn('the SQLite log could not be truncated: replaced values stay in it until overwritten');
  }
}
