import { Module } from '@nestjs/common';
import { SecretResealer } from './secret-resealer';

/** Secrets at rest: the keyring is installed before the app is built (bootstrap); this re-seals. */
@Module({ providers: [SecretResealer] })
export class SecretsModule {}
