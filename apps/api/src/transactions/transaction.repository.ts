import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { IsNull, QueryFailedError, type DataSource, type Repository } from 'typeorm';
import { transition } from '@tps/domain';
import { SerialWriter } from '@tps/database';
import type { LinkEvent } from '@tps/link';
import { TransactionEventEntity } from './transaction-event.entity';
import { TransactionEntity } from './transaction.entity';

export type AppendResult = 'appended' | 'duplicate';

function isUniqueViolation(error: unknown): boolean {
  return error instanceof QueryFailedError && /UNIQUE|duplicate key|Duplicate entry/i.test(error.message);
}

@Injectable()
export class TransactionRepository {
  private readonly writer: SerialWriter;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    @InjectRepository(TransactionEntity) private readonly transactions: Repository<TransactionEntity>,
    @InjectRepository(TransactionEventEntity) private readonly events: Repository<TransactionEventEntity>,
  ) {
    this.writer = new SerialWriter(dataSource);
  }

  findByClientId(merchantId: string, clientTransactionId: string): Promise<TransactionEntity | null> {
    return this.transactions.findOneBy({ merchantId, clientTransactionId });
  }

  eventsOf(transactionId: string): Promise<TransactionEventEntity[]> {
    return this.events.find({ where: { transactionId }, order: { sequence: 'ASC' } });
  }

  /** Inserts the idempotency record; false when the client_transaction_id is already taken. */
  async insert(transaction: TransactionEntity): Promise<boolean> {
    try {
      await this.writer.write((manager) => manager.insert(TransactionEntity, transaction));
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  /** Forgets a request the terminal never took, so that the caller may try it again. */
  async remove(id: string): Promise<void> {
    await this.writer.write((manager) => manager.delete(TransactionEntity, { id, status: IsNull() }));
  }

  /**
   * Appends one event to its transaction, moving the stored state through the domain's
   * transition function; an event already stored (a replay) changes nothing.
   */
  appendEvent(transactionId: string, link: LinkEvent): Promise<AppendResult> {
    const { event, outcome } = link;
    return this.writer.write(async (manager) => {
      if (await manager.existsBy(TransactionEventEntity, { eventId: event.event_id })) return 'duplicate';
      const transaction = await manager.findOneByOrFail(TransactionEntity, { id: transactionId });
      if (event.previous_status !== (transaction.status ?? '')) {
        throw new Error(
          `event ${event.event_id} follows ${event.previous_status || '(none)'} but ${transaction.clientTransactionId} is at ${transaction.status ?? '(none)'}`,
        );
      }
      const status = transition(transaction.status, event.status);
      const sequence = (await manager.countBy(TransactionEventEntity, { transactionId })) + 1;
      await manager.insert(TransactionEventEntity, {
        eventId: event.event_id,
        transactionId,
        sequence,
        status,
        previousStatus: event.previous_status,
        occurredAt: event.occurred_at,
        envelope: event,
      });
      const changes: Partial<TransactionEntity> = { status };
      if (status === 'TERMINAL_ACKNOWLEDGED') changes.acknowledgement = event;
      if (outcome !== undefined) {
        changes.outcome = outcome;
        if (outcome.kind === 'acquirer' && outcome.response.approved) {
          changes.transactionReference = outcome.response.rawResponse.transaction_reference;
        }
      }
      await manager.update(TransactionEntity, { id: transactionId }, changes);
      return 'appended';
    });
  }
}
