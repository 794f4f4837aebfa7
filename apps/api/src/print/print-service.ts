import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ContractError } from '@tps/domain';
import type { CreatePrintJobDto, PrintCommand, PrintJobRecord } from '@tps/contracts/dto';
import type { PrintJobReport, PrintOrder } from '@tps/link';
import type { MerchantEntity } from '../auth/merchant.entity';
import { MerchantClock } from '../clock/merchant-clock';
import { TerminalLinks } from '../link/terminal-links';
import type { TerminalEntity } from '../terminals/terminal.entity';
import { TerminalResolver } from '../terminals/terminal-resolver';
import type { RequestForm } from '../terminals/request-form';
import { PrintJobEntity } from '../print-jobs/print-job.entity';
import { PrintJobRepository } from '../print-jobs/print-job.repository';
import { ReceiptTransactionsRepository } from './receipt-transactions.repository';
import { transactionReceipt } from './transaction-receipt';

/** A terminal takes a print job into its queue at once; it never waits for the paper. */
const HANDOFF_TIMEOUT_MS = 10_000;

export function printJobRecord(job: PrintJobEntity): PrintJobRecord {
  const record: PrintJobRecord = {
    printJobId: job.printJobId,
    status: job.status,
    externalReference: job.externalReference,
    terminalSerial: job.terminalSerial,
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
  };
  if (job.errorCode !== null) record.errorCode = job.errorCode;
  if (job.errorMessage !== null) record.errorMessage = job.errorMessage;
  if (job.printedText !== null) record.printedText = job.printedText;
  if (job.callback !== null) record.callback = job.callback;
  return record;
}

/** Print jobs in Local and Cloud form: recorded here, printed by the terminal's printer. */
@Injectable()
export class PrintService {
  constructor(
    private readonly clock: MerchantClock,
    private readonly resolver: TerminalResolver,
    private readonly links: TerminalLinks,
    private readonly jobs: PrintJobRepository,
    private readonly transactions: ReceiptTransactionsRepository,
  ) {}

  async create(
    merchant: MerchantEntity,
    form: RequestForm,
    serial: string | undefined,
    body: CreatePrintJobDto,
  ): Promise<PrintJobRecord> {
    const terminal = await this.resolver.resolve(merchant, serial);
    const commands = await this.commandsOf(merchant, terminal, body);
    const now = this.clock.now(merchant).toISOString();
    const job = Object.assign(new PrintJobEntity(), {
      printJobId: randomUUID(),
      merchantId: merchant.merchantId,
      terminalSerial: terminal.serialNumber,
      status: 'PENDING',
      externalReference: body.externalReference ?? '',
      webhookUrl: body.webhookUrl ?? '',
      transactionReference: body.transaction_reference ?? null,
      commands,
      errorCode: null,
      errorMessage: null,
      printedText: null,
      callback: null,
      createdAt: now,
      updatedAt: now,
    } satisfies PrintJobEntity);
    await this.jobs.insert(job);
    const order: PrintOrder = {
      printJobId: job.printJobId,
      merchantId: merchant.merchantId,
      commands,
      webhookUrl: job.webhookUrl,
      externalReference: job.externalReference,
      clockOffsetMs: this.clock.offsetMs(merchant),
    };
    try {
      await this.links.send<PrintJobReport>(
        terminal,
        form,
        { type: 'print', job: order },
        HANDOFF_TIMEOUT_MS,
      );
    } catch (error) {
      await this.jobs.remove(job.printJobId);
      throw error;
    }
    // The terminal may already have reported progress; answer the freshest record.
    const current = await this.jobs.findOnTerminal(
      merchant.merchantId,
      terminal.serialNumber,
      job.printJobId,
    );
    return printJobRecord(current ?? job);
  }

  async get(
    merchant: MerchantEntity,
    serial: string | undefined,
    printJobId: string,
  ): Promise<PrintJobRecord> {
    const terminal = await this.resolver.resolve(merchant, serial);
    const job = await this.jobs.findOnTerminal(merchant.merchantId, terminal.serialNumber, printJobId);
    if (job === null) throw new ContractError('NF-003', `print job ${printJobId.slice(0, 64)} not found`);
    return printJobRecord(job);
  }

  private async commandsOf(
    merchant: MerchantEntity,
    terminal: TerminalEntity,
    body: CreatePrintJobDto,
  ): Promise<PrintCommand[]> {
    const reference = body.transaction_reference;
    if (reference === undefined) {
      // The DTO demands commands when no reference is given.
      return body.commands ?? [];
    }
    if (body.commands !== undefined) {
      throw new ContractError(
        'PAR-002',
        'give either commands or a transaction_reference (its standard receipt), not both',
        'commands',
      );
    }
    const transaction = await this.transactions.findByReference(merchant.merchantId, reference);
    const outcome = transaction?.outcome;
    if (transaction === null || outcome?.kind !== 'acquirer') {
      throw new ContractError('NF-001', `transaction ${reference} not found`, 'transaction_reference');
    }
    return transactionReceipt({
      merchantId: merchant.merchantId,
      terminalSerial: terminal.serialNumber,
      amount: transaction.amount,
      tip: transaction.tip,
      transactionReference: reference,
      response: outcome.response,
    });
  }
}
