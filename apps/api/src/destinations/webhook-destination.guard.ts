import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { refusalOf, type DestinationRules } from '@tps/delivery';
import { ContractError } from '@tps/domain';
import { ApiConfig, destinationRules } from '../config/api-config';

/** The body fields that name where the service will later send something (contract §2). */
export const DESTINATION_FIELDS = ['events_webhook_url', 'webhookUrl'] as const;

/**
 * Refuses, at request time, a webhook or callback URL the profile forbids (PAR-004). Delivery
 * checks again when it connects, since a name may resolve elsewhere by then.
 *
 * A guard, installed globally after authentication, rather than an interceptor: it runs at the
 * same point of the request (after the guards before it, before validation), and a request with
 * no interceptor skips NestJS's rxjs pipeline, several per cent of the CPU of a request (BENCHMARKS.md).
 */
@Injectable()
export class WebhookDestinationGuard implements CanActivate {
  private readonly rules: DestinationRules;

  constructor(config: ApiConfig) {
    this.rules = destinationRules(config);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const body: unknown = context.switchToHttp().getRequest<Request>().body;
    if (typeof body !== 'object' || body === null) return true;
    for (const field of DESTINATION_FIELDS) {
      const value = (body as Record<string, unknown>)[field];
      if (typeof value !== 'string') continue;
      const refusal = await refusalOf(value, this.rules);
      if (refusal !== null) throw new ContractError('PAR-004', `${field} ${refusal}`, field);
    }
    return true;
  }
}
