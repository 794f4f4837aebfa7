import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { SealedSecrets, secretKeyring } from '@tps/database';
import { ApiConfig } from '../config/api-config';
import { describeUnknownKey, unknownSecretKeys } from './unknown-secret-keys';

/**
 * Before the service listens: stored secrets sealed under a key this process lacks are named in
 * the log, and the production profile refuses to start on them (contract, "Secrets at rest"),
 * rather than answering every request of those merchants with an error.
 */
@Injectable()
export class UnknownKeyCheck implements OnApplicationBootstrap {
  private readonly logger = new Logger('Secrets');

  constructor(
    private readonly secrets: SealedSecrets,
    private readonly config: ApiConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const unknown = await unknownSecretKeys(this.secrets, secretKeyring());
    if (unknown.length === 0) return;
    const message = unknown.map(describeUnknownKey).join('; ');
    if (this.config.PROFILE === 'production') throw new Error(`refusing to start: ${message}`);
    this.logger.error(message);
  }
}
