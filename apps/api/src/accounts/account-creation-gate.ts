import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ContractError } from '@tps/domain';
import { ApiConfig } from '../config/api-config';
import { bearerMatches } from '../metrics/metrics-endpoint';

/**
 * Hosted mode with ACCOUNT_CREATION_TOKEN (contract, "Hosted mode"): an account is made only for
 * a request that carries the token as `Authorization: Bearer <token>`, compared in constant time.
 * Without a token configured every request passes, held to the per-address limit alone.
 */
@Injectable()
export class AccountCreationGate {
  constructor(private readonly config: ApiConfig) {}

  check(request: Request): void {
    const token = this.config.ACCOUNT_CREATION_TOKEN;
    if (token === undefined || bearerMatches(request, token)) return;
    throw new ContractError(
      'AUTH-003',
      'this hosted sandbox makes accounts only with its account-creation token: send Authorization: Bearer <token> (ask its operator)',
    );
  }
}
