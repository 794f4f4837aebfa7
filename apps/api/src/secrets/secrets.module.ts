import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SealedSecrets, SerialWriter, portsOf } from '@tps/database';
import { SEALED_MERCHANT_COLUMNS } from '../auth/merchant.entity';
import { SecretResealer } from './secret-resealer';
import { UnknownKeyCheck } from './unknown-key-check';

/**
 * Secrets at rest: the keyring is installed before the app is built (bootstrap); this checks that
 * it opens every stored secret, and re-seals.
 */
@Module({
  providers: [
    UnknownKeyCheck,
    SecretResealer,
    {
      provide: SealedSecrets,
      useFactory: (reads: DataSource, writer: SerialWriter) =>
        portsOf(reads).sealedSecrets(reads, writer, {
          table: 'merchants',
          key: 'merchant_id',
          columns: Object.keys(SEALED_MERCHANT_COLUMNS),
        }),
      inject: [DataSource, SerialWriter],
    },
  ],
})
export class SecretsModule {}
