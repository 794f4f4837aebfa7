import { ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
import { ContractError, type ErrorCode } from '@tps/domain';
import { WEBHOOK_URL_CONSTRAINT } from '@tps/contracts';
import { unknownFieldHint } from '@tps/contracts/dto';
import { firstNullPath } from './null-fields';

function firstLeaf(
  errors: ValidationError[],
  prefix = '',
): { path: string; error: ValidationError } | undefined {
  for (const error of errors) {
    // An array item is named by its index in brackets: `commands[3].lines`.
    const path = /^\d+$/.test(error.property)
      ? `${prefix}[${error.property}]`
      : prefix
        ? `${prefix}.${error.property}`
        : error.property;
    if (error.constraints && Object.keys(error.constraints).length > 0) return { path, error };
    const nested = firstLeaf(error.children ?? [], path);
    if (nested) return nested;
  }
  return undefined;
}

function codeFor(constraint: string): ErrorCode {
  if (constraint === 'whitelistValidation') return 'PAR-001';
  if (constraint === WEBHOOK_URL_CONSTRAINT) return 'PAR-004';
  return 'PAR-002';
}

export function validationErrorToContract(errors: ValidationError[]): ContractError {
  const leaf = firstLeaf(errors);
  if (leaf === undefined) return new ContractError('PAR-002', 'invalid request body');
  const constraints = leaf.error.constraints ?? {};
  const constraint = Object.keys(constraints)[0] ?? '';
  const code = codeFor(constraint);
  if (code === 'PAR-001') {
    // The body the field was found in says which mistake it likely is (contract §2).
    const hint = unknownFieldHint(leaf.error.target, leaf.error.property);
    return new ContractError('PAR-001', hint ?? `unknown field ${leaf.path}`, leaf.path);
  }
  const message = constraints[constraint] ?? 'invalid value';
  return new ContractError(code, message.replace(leaf.error.property, leaf.path), leaf.path);
}

/**
 * A body's `null` is refused before any transformation touches it (contract §4): no field of the
 * contract takes null, and an optional field's `@IsOptional()` would let it through as if absent.
 */
class ContractValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body') {
      const path = firstNullPath(value);
      if (path !== undefined)
        throw new ContractError('PAR-002', `${path} must not be null: leave an optional field out`, path);
    }
    return super.transform(value, metadata) as Promise<unknown>;
  }
}

/**
 * Validation of every body: unknown fields refused (a typo never passes silently), no implicit
 * conversion (a string is never taken for a number), the contract's codes and `param`.
 */
export function contractValidationPipe(): ValidationPipe {
  return new ContractValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    // The target is read only to choose an unknown field's hint; it never reaches an answer.
    validationError: { target: true, value: false },
    stopAtFirstError: true,
    exceptionFactory: validationErrorToContract,
  });
}
