import {
  UseInterceptors,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import type { Request } from 'express';
import type { Observable } from 'rxjs';
import { ContractError } from '@tps/domain';

/**
 * What a route that takes no body accepts (contract, "Request bodies are JSON"): none, or `{}`.
 * A field is unknown there as anywhere (400 PAR-001), so that one a caller expected to count (a
 * reset's `keep_terminals`, a chosen webhook secret) never passes silently; JSON that is not an
 * object is 400 PAR-002, as on the routes that take one.
 */
export function refuseBody(body: unknown): void {
  if (body === undefined) return;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ContractError('PAR-002', 'this route takes no body: send none, or {}', 'body');
  }
  const [field] = Object.keys(body);
  if (field !== undefined) {
    throw new ContractError('PAR-001', `unknown field ${field}: this route takes no body`, field);
  }
}

class RefuseBody implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    refuseBody(context.switchToHttp().getRequest<Request>().body);
    return next.handle();
  }
}

/** Marks a route that takes no body: a body with anything in it is refused before it runs. */
export const TakesNoBody = (): MethodDecorator & ClassDecorator => UseInterceptors(RefuseBody);
