import { Module } from '@nestjs/common';
import { SecretResealer } from './secret-resealer';
import { UnknownKeyCheck } from './unknown-key-check';

/**
 * Secrets at rest: the keyring is installed before the app is built (bootstrap); this checks that
 * it opens every stored secret, and re-seals.
 */
@Module({ providers: [UnknownKeyCheck, SecretResealer] })
export class SecretsModule {}
