import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type EntityManager, type Repository } from 'typeorm';
import { insertRows, isUniqueViolation, SerialWriter, sqlOf } from '@tps/database';
import { MerchantEntity } from '../auth/merchant.entity';
import { PrintJobEntity } from '../print-jobs/print-job.entity';
import { TerminalEntity } from '../terminals/terminal.entity';
import { TransactionEventEntity } from '../transactions/transaction-event.entity';
import { TransactionEntity } from '../transactions/transaction.entity';
import { DeliveryAttemptEntity } from '../webhooks/delivery-attempt.entity';
import { DeliveryEntity } from '../webhooks/delivery.entity';

/**
 * A sandbox account as a whole (contract §14): made, wiped clean and removed each in one write,
 * so no caller ever sees half an account.
 */
@Injectable()
export class AccountRepository {
  constructor(
    private readonly writer: SerialWriter,
    @InjectRepository(TerminalEntity) private readonly terminals: Repository<TerminalEntity>,
  ) {}

  /** Stores a merchant with its fleet; false when an id or a serial is already taken. */
  async create(merchant: MerchantEntity, terminals: TerminalEntity[]): Promise<boolean> {
    try {
      await this.writer.write(async (manager) => {
        await insertRows(manager, MerchantEntity, merchant);
        // Its creation is its first activity: an account made and never used goes when idle too.
        await sqlOf(manager).run('UPDATE merchants SET last_active_at_ms = ? WHERE merchant_id = ?', [
          Date.now(),
          merchant.merchantId,
        ]);
        await insertRows(manager, TerminalEntity, terminals);
      });
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  fleetOf(merchantId: string): Promise<TerminalEntity[]> {
    return this.terminals.find({ where: { merchantId }, order: { createdAt: 'ASC', serialNumber: 'ASC' } });
  }

  /** Puts the merchant's terminals back online with the printer ok (pace kept); answers the fleet. */
  async restoreFleet(merchantId: string): Promise<TerminalEntity[]> {
    await this.writer.write((manager) =>
      manager.update(
        TerminalEntity,
        { merchantId },
        { offline: false, printer: 'ok', cardholder: 'auto', cardholderSetAt: null, cardholderSetFrom: null },
      ),
    );
    return this.fleetOf(merchantId);
  }

  /**
   * Erases what the merchant did (transactions, their events, webhook deliveries and attempts,
   * print jobs) and puts its clock back to real time, in one write.
   */
  async eraseActivity(merchantId: string): Promise<void> {
    await this.writer.write(async (manager) => {
      await eraseActivity(manager, merchantId);
      await manager.update(MerchantEntity, { merchantId }, { clockOffsetSeconds: 0 });
    });
  }

  /** Removes the merchant, its terminals and everything they did. */
  async remove(merchantId: string): Promise<void> {
    await this.writer.write(async (manager) => {
      await eraseActivity(manager, merchantId);
      await manager.delete(TerminalEntity, { merchantId });
      await manager.delete(MerchantEntity, { merchantId });
    });
  }
}

/** Children first, each found through the merchant's rows, on any database TypeORM speaks to. */
async function eraseActivity(manager: EntityManager, merchantId: string): Promise<void> {
  const ofMerchant = (table: string, column: string): string =>
    `${column} IN (SELECT id FROM ${table} WHERE merchant_id = :merchantId)`;
  await manager
    .createQueryBuilder()
    .delete()
    .from(DeliveryAttemptEntity)
    .where(ofMerchant('webhook_deliveries', 'delivery_id'), { merchantId })
    .execute();
  await manager.delete(DeliveryEntity, { merchantId });
  await manager
    .createQueryBuilder()
    .delete()
    .from(TransactionEventEntity)
    .where(ofMerchant('transactions', 'transaction_id'), { merchantId })
    .execute();
  await manager.delete(TransactionEntity, { merchantId });
  await manager.delete(PrintJobEntity, { merchantId });
}
