import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { isStorageFailure } from '@tps/database';
import { ContractError, OutcomeNotStoredError } from '@tps/domain';
import { ApiConfig } from '../config/api-config';
import { PrefetchedTerminals } from '../terminals/prefetched-terminals';
import { TERMINAL_SERIAL_PARAM } from '../terminals/terminal-target.decorator';
import { AccountActivity } from './account-activity';
import { isDemoCredential } from './demo-credentials';
import type { MerchantEntity } from './merchant.entity';
import { MerchantRateLimiter } from './merchant-rate-limiter';
import { MerchantRepository } from './merchant.repository';
import { refusePublishedCredentials } from './published-credentials';
import { PUBLIC_ROUTE } from './public-route.decorator';
import { RECORDED_BY_CLIENT_ID } from './recorded-by-client-id.decorator';
import { checkTimestamp, parseAuthorization, signatureMatches } from './request-signature';

export interface AuthenticatedRequest extends Request {
  merchant: MerchantEntity;
  rawBody?: Buffer;
}

/**
 * The one door of every route (installed globally, so a new controller cannot forget it):
 * resolves the merchant from a signed request. Only routes marked @PublicRoute() skip it.
 */
@Injectable()
export class MerchantAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly config: ApiConfig,
    private readonly merchants: MerchantRepository,
    private readonly limiter: MerchantRateLimiter,
    private readonly prefetched: PrefetchedTerminals,
    private readonly activity: AccountActivity,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean | undefined>(PUBLIC_ROUTE, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (isPublic === true) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    // A controller that also names this guard must not count the request twice.
    if ((request.merchant as MerchantEntity | undefined) !== undefined) return true;
    const credentials = parseAuthorization(request.header('authorization'));
    // The real clock, never a merchant's sandbox clock (contract §5 and §8).
    const timestamp = checkTimestamp(request.header('timestamp'), Math.floor(Date.now() / 1000));
    const named = request.params[TERMINAL_SERIAL_PARAM] as string | undefined;
    const found = await this.merchants
      .findWithTerminal(credentials.merchantId, named)
      .catch((error: unknown) => this.unreadable(context, request, error));
    const merchant = found?.merchant ?? null;
    const body = request.rawBody ?? Buffer.alloc(0);
    if (
      merchant === null ||
      !signatureMatches(
        merchant.secretKey,
        credentials.signature,
        timestamp,
        request.method,
        request.originalUrl,
        body,
      )
    ) {
      throw new ContractError('AUTH-001', 'unknown merchant or wrong signature');
    }
    if (this.config.PROFILE === 'production' && isDemoCredential(merchant)) {
      throw new ContractError('AUTH-001', 'the demo credentials are refused in the production profile');
    }
    refusePublishedCredentials(this.config, merchant, request.method);
    this.limiter.consume(merchant.merchantId);
    // Before the request acts: an account that asks is not idle (contract, "Retention").
    await this.activity.touch(merchant);
    const serial = named ?? merchant.boundTerminalSerial;
    if (found !== null && serial !== null) this.prefetched.remember(merchant, serial, found.terminal);
    request.merchant = merchant;
    return true;
  }

  /**
   * The merchant could not be read: nothing else can be either (a database server gone). On a
   * route recorded by client_transaction_id an earlier attempt may have reached the terminal, so
   * "not taken" (503 INT-002) cannot be said: 504 INT-003, whose retry answers the outcome.
   */
  private unreadable(context: ExecutionContext, request: AuthenticatedRequest, error: unknown): never {
    const recorded = this.reflector.get<boolean | undefined>(RECORDED_BY_CLIENT_ID, context.getHandler());
    if (recorded !== true || !isStorageFailure(error)) throw error;
    const body = request.body as { client_transaction_id?: unknown } | undefined;
    const id = typeof body?.client_transaction_id === 'string' ? body.client_transaction_id : 'this request';
    throw new OutcomeNotStoredError(
      id,
      error,
      `the service cannot read its storage right now, so whether an earlier request with ${id} was taken is unknown; retry with the same client_transaction_id`,
    );
  }
}
