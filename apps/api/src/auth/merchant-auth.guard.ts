import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { ContractError } from '@tps/domain';
import type { MerchantEntity } from './merchant.entity';
import { MerchantRepository } from './merchant.repository';
import { checkTimestamp, parseAuthorization, signatureMatches } from './request-signature';

export interface AuthenticatedRequest extends Request {
  merchant: MerchantEntity;
  rawBody?: Buffer;
}

/** The one door of every merchant route: resolves the merchant from a signed request. */
@Injectable()
export class MerchantAuthGuard implements CanActivate {
  constructor(private readonly merchants: MerchantRepository) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const credentials = parseAuthorization(request.header('authorization'));
    const timestamp = checkTimestamp(request.header('timestamp'), Math.floor(Date.now() / 1000));
    const merchant = await this.merchants.findById(credentials.merchantId);
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
    request.merchant = merchant;
    return true;
  }
}
