import { Injectable } from '@nestjs/common';
import { ZERO_AMOUNT, afterTerminalAnswered } from '@tps/domain';
import type { TransactionEvent } from '@tps/contracts';
import type { AbortAnswer, AbortReply } from '@tps/link';
import { EventIngest } from '../transactions/event-ingest';
import type { MerchantEntity } from '../auth/merchant.entity';
import { ApiConfig } from '../config/api-config';
import { TerminalLinks } from '../link/terminal-links';
import { OperationService } from '../payments/operation-service';
import { TerminalResolver } from '../terminals/terminal-resolver';
import type { RequestForm } from '../terminals/request-form';

export interface AbortTarget {
  merchant: MerchantEntity;
  form: RequestForm;
  /** The path's serial in Cloud form; absent in Local form. */
  serial?: string;
  /** The operation to abort; undefined: whatever runs on the terminal. */
  target?: string;
}

/**
 * Abort (contract §2, §3, §9). Allowed while the terminal is busy: it is the one operation that
 * may interrupt another. Before APPROVAL_REQUESTED the target is canceled; after it, TRX-002.
 */
@Injectable()
export class AbortService {
  constructor(
    private readonly config: ApiConfig,
    private readonly resolver: TerminalResolver,
    private readonly links: TerminalLinks,
    private readonly operations: OperationService,
    private readonly ingest: EventIngest,
  ) {}

  /** Answers once the target's TERMINAL_CANCELED is stored by the service, or 409 TRX-002. */
  async sync(abort: AbortTarget): Promise<AbortAnswer> {
    const terminal = await this.resolver.resolve(abort.merchant, abort.serial);
    const reply = await this.links.send<AbortReply>(
      terminal,
      abort.form,
      { type: 'abort', merchantId: abort.merchant.merchantId, target: abort.target },
      this.config.TERMINAL_REPLY_TIMEOUT_MS,
    );
    // The terminal has acted on the abort: failing to store that is INT-003, not "nothing moved".
    await this.ingest.ingestAll(terminal, reply.events).catch((error: unknown) => {
      throw afterTerminalAnswered(reply.answer.client_transaction_id, error);
    });
    return reply.answer;
  }

  /** An abort with its own lifecycle: ACKNOWLEDGED, then CANCELED or REJECTED (TRX-002). */
  async(
    abort: AbortTarget,
    own: {
      clientTransactionId: string;
      metadata: Record<string, string>;
      eventsWebhookUrl: string;
      fingerprint: string;
      traceparent?: string;
    },
  ): Promise<TransactionEvent> {
    return this.operations.startAsync({
      merchant: abort.merchant,
      form: abort.form,
      serial: abort.serial,
      type: 'abort',
      mode: 'async',
      amount: ZERO_AMOUNT,
      targetClientTransactionId: abort.target,
      ...own,
    });
  }
}
