import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ContractError, totalCentavos } from '@tps/domain';
import type { TransactionEvent } from '@tps/contracts';
import { MAX_TOTAL_CENTAVOS } from '@tps/contracts';
import type { OperationOrder, OperationReply } from '@tps/link';
import { MerchantClock } from '../clock/merchant-clock';
import { ApiConfig } from '../config/api-config';
import { TerminalLinks } from '../link/terminal-links';
import { TerminalResolver } from '../terminals/terminal-resolver';
import { EventIngest } from '../transactions/event-ingest';
import { TransactionEntity } from '../transactions/transaction.entity';
import type { TerminalEntity } from '../terminals/terminal.entity';
import { TransactionRepository } from '../transactions/transaction.repository';
import type { OperationRequest } from './operation-request';

/** Starts payment operations on terminals; the same use case behind the Local and Cloud forms. */
@Injectable()
export class OperationService {
  /** Requests being handed to a terminal right now, so that a concurrent repeat waits for them. */
  private readonly inFlight = new Map<string, Promise<unknown>>();

  constructor(
    private readonly config: ApiConfig,
    private readonly clock: MerchantClock,
    private readonly resolver: TerminalResolver,
    private readonly links: TerminalLinks,
    private readonly transactions: TransactionRepository,
    private readonly ingest: EventIngest,
  ) {}

  async startAsync(request: OperationRequest): Promise<TransactionEvent> {
    const total = totalCentavos(request.amount);
    // An abort carries no amount (its events show zeros, contract §3).
    if (request.type !== 'abort' && (total <= 0 || total > MAX_TOTAL_CENTAVOS)) {
      throw new ContractError(
        'PAR-003',
        `amount total must be above 0 and at most ${MAX_TOTAL_CENTAVOS} centavos`,
        'amount',
      );
    }
    const terminal = await this.resolver.resolve(request.merchant, request.serial);
    const key = `${request.merchant.merchantId}:${request.clientTransactionId}`;
    const running = this.inFlight.get(key);
    if (running !== undefined) await running.catch(() => undefined);

    const existing = await this.transactions.findByClientId(
      request.merchant.merchantId,
      request.clientTransactionId,
    );
    if (existing !== null) return this.repeatedAsync(existing, request);

    const transaction = this.newTransaction(request, terminal.serialNumber);
    if (!(await this.transactions.insert(transaction))) {
      // A concurrent twin inserted first; answer as its repeat.
      return this.startAsync(request);
    }
    const started = this.handToTerminal(transaction, terminal, request);
    this.inFlight.set(key, started);
    try {
      return await started;
    } finally {
      this.inFlight.delete(key);
    }
  }

  private async handToTerminal(
    transaction: TransactionEntity,
    terminal: TerminalEntity,
    request: OperationRequest,
  ): Promise<TransactionEvent> {
    const order: OperationOrder = {
      type: request.type,
      mode: request.mode,
      merchantId: request.merchant.merchantId,
      clientTransactionId: request.clientTransactionId,
      amount: request.amount,
      tip: request.tip,
      metadata: request.metadata,
      eventsWebhookUrl: request.eventsWebhookUrl,
      transactionReference: request.transactionReference,
      targetClientTransactionId: request.targetClientTransactionId,
      clockOffsetMs: this.clock.offsetMs(request.merchant),
    };
    let reply: OperationReply;
    try {
      reply = await this.links.send<OperationReply>(
        terminal,
        request.form,
        { type: 'operation', order },
        this.config.TERMINAL_REPLY_TIMEOUT_MS,
      );
    } catch (error) {
      await this.transactions.remove(transaction.id);
      throw error;
    }
    await this.ingest.ingest(terminal.serialNumber, { event: reply.acknowledgement });
    return reply.acknowledgement;
  }

  private repeatedAsync(existing: TransactionEntity, request: OperationRequest): TransactionEvent {
    if (existing.fingerprint !== request.fingerprint) {
      throw new ContractError(
        'TRX-001',
        `client_transaction_id ${request.clientTransactionId} was already used for another request`,
        'client_transaction_id',
      );
    }
    if (existing.acknowledgement === null) {
      throw new ContractError(
        'TER-002',
        'the first request with this client_transaction_id has no answer yet',
      );
    }
    return existing.acknowledgement;
  }

  private newTransaction(request: OperationRequest, terminalSerial: string): TransactionEntity {
    return Object.assign(new TransactionEntity(), {
      id: randomUUID(),
      merchantId: request.merchant.merchantId,
      clientTransactionId: request.clientTransactionId,
      fingerprint: request.fingerprint,
      operationType: request.type,
      mode: request.mode,
      form: request.form,
      terminalSerial,
      status: null,
      amount: request.amount,
      tip: request.tip ?? 0,
      metadata: request.metadata,
      eventsWebhookUrl: request.eventsWebhookUrl,
      transactionReference: null,
      targetReference: request.transactionReference ?? null,
      acknowledgement: null,
      outcome: null,
      createdAt: this.clock.now(request.merchant),
      updatedAt: this.clock.now(request.merchant),
    });
  }
}
