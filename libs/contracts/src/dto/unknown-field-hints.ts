const HINTS = Symbol('unknownFieldHints');

type HintTable = Readonly<Record<string, string>>;

/**
 * What to tell a caller who sends one of these fields to a body that does not take it, in place of
 * "unknown field": the body's class knows which mistake is likely there (another channel's webhook
 * parameter, a webhook on a call that delivers none). A subclass inherits its parents' hints.
 */
export function UnknownFieldHints(hints: HintTable): ClassDecorator {
  return (target) => {
    Reflect.defineMetadata(HINTS, hints, target);
  };
}

/** The hint for `field` on the body object `target` (an instance of a request DTO), if any. */
export function unknownFieldHint(target: unknown, field: string): string | undefined {
  if (typeof target !== 'object' || target === null) return undefined;
  const hints = Reflect.getMetadata(HINTS, target.constructor) as HintTable | undefined;
  return hints !== undefined && Object.prototype.hasOwnProperty.call(hints, field) ? hints[field] : undefined;
}

/** `webhookUrl` on a payment operation: the print job's parameter, not the payment's. */
export const PRINT_CALLBACK_ON_A_PAYMENT =
  'webhookUrl belongs to print jobs; a payment operation takes its transaction webhook as events_webhook_url';
