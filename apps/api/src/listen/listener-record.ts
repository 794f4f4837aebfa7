import type { PrintCallbackListenerAnswer } from '@tps/contracts';
import type { ListenerAnswer } from '@tps/delivery';

/** A listener's answer to its copy, as a print job's callback record shows it (contract §6.1, §12). */
export function listenerRecord({ outcome, latencyMs }: ListenerAnswer): PrintCallbackListenerAnswer {
  return 'statusCode' in outcome
    ? { statusCode: outcome.statusCode, error: null, latencyMs }
    : { statusCode: null, error: outcome.error, latencyMs };
}
