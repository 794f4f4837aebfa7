import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  ContractError,
  FollowableOutcomeUnknownError,
  PrintTransitionRefusedError,
  terminalTookNothing,
} from '@tps/domain';
import type { CreatePrintJobDto, PrintCommand, PrintJobRecord } from '@tps/contracts/dto';
import type { PrintJobReport, PrintOrder } from '@tps/link';
import type { MerchantEntity } from '../auth/merchant.entity';
import { MerchantClock } from '../clock/merchant-clock';
import { ApiConfig } from '../config/api-config';
import { TerminalLinks } from '../link/terminal-links';
import type { TerminalEntity } from '../terminals/terminal.entity';
import { TerminalResolver } from '../terminals/terminal-resolver';
import type { RequestForm } from '../terminals/request-form';
import { PrintJobEntity } from '../print-jobs/print-job.entity';
import { PrintJobRepository } from '../print-jobs/print-job.repository';
import { PrintReportIngest } from '../print-jobs/print-report-ingest';
import { printJobLocation } from './print-job-location';
import { ReceiptTransactionsRepository } from './receipt-transactions.repository';
import { transactionReceipt } from './transaction-receipt';

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
  /** Jobs being handed again right now, so that reads at once send them once. */
  private readonly handingAgain = new Map<string, Promise<void>>();

  constructor(
    private readonly config: ApiConfig,
    private readonly clock: MerchantClock,
    private readonly resolver: TerminalResolver,
    private readonly links: TerminalLinks,
    private readonly jobs: PrintJobRepository,
    private readonly reports: PrintReportIngest,
    private readonly transactions: ReceiptTransactionsRepository,
  ) {}

  async create(
    merchant: MerchantEntity,
    form: RequestForm,
    serial: string | undefined,
    body: CreatePrintJobDto,
    traceparent?: string,
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
      callbackOwner: null,
      callbackLeaseUntil: null,
      callbackLeaseEpoch: 0,
      createdAt: now,
      updatedAt: now,
    } satisfies PrintJobEntity);
    await this.jobs.insert(job);
    await this.handOff(merchant, terminal, form, job, traceparent);
    // The terminal may already have reported progress; answer the freshest record.
    const current = await this.jobs.findOnTerminal(
      merchant.merchantId,
      terminal.serialNumber,
      job.printJobId,
    );
    return printJobRecord(current ?? job);
  }

  /**
   * The job as last heard. A job still PENDING once its hand-off has timed out may never have
   * reached the terminal (its first answer was lost): it is handed again first, and the terminal,
   * which takes a job once by its id, answers where it is with it (contract, Print jobs).
   */
  async get(
    merchant: MerchantEntity,
    form: RequestForm,
    serial: string | undefined,
    printJobId: string,
    traceparent?: string,
  ): Promise<PrintJobRecord> {
    const terminal = await this.resolver.resolve(merchant, serial);
    const job = await this.jobs.findOnTerminal(merchant.merchantId, terminal.serialNumber, printJobId);
    if (job === null) throw new ContractError('NF-003', `print job ${printJobId.slice(0, 64)} not found`);
    if (!this.handOffLapsed(merchant, job)) return printJobRecord(job);
    await this.handAgain(merchant, terminal, form, job, traceparent);
    const current = await this.jobs.findOnTerminal(merchant.merchantId, terminal.serialNumber, printJobId);
    return printJobRecord(current ?? job);
  }

  /**
   * Hands a stored job to its terminal. A refusal, or a link down before sending, means the
   * terminal took nothing: the job is dropped and the error answered (503 TER-001...). Once sent,
   * a lost link or no answer in time leaves the outcome unknown: the job is kept, its status
   * comes from the terminal's reports, and the caller hears 504 TER-002 with where to follow it.
   */
  private async handOff(
    merchant: MerchantEntity,
    terminal: TerminalEntity,
    form: RequestForm,
    job: PrintJobEntity,
    traceparent: string | undefined,
  ): Promise<void> {
    try {
      await this.sendOrder(merchant, terminal, form, job, traceparent);
    } catch (error) {
      if (!terminalTookNothing(error)) {
        const location = printJobLocation(form, terminal.serialNumber, job.printJobId);
        const cause =
          error instanceof ContractError && error.code === 'TER-002' ? error.message : 'the hand-off failed';
        throw new FollowableOutcomeUnknownError(
          `${cause}; print job ${job.printJobId} is kept: its status is at ${location}`,
          location,
        );
      }
      await this.jobs.remove(job.printJobId);
      throw error;
    }
  }

  private handOffLapsed(merchant: MerchantEntity, job: PrintJobEntity): boolean {
    const age = this.clock.now(merchant).getTime() - Date.parse(job.createdAt);
    return job.status === 'PENDING' && age >= this.config.PRINT_HANDOFF_TIMEOUT_MS;
  }

  private handAgain(
    merchant: MerchantEntity,
    terminal: TerminalEntity,
    form: RequestForm,
    job: PrintJobEntity,
    traceparent: string | undefined,
  ): Promise<void> {
    const running = this.handingAgain.get(job.printJobId);
    if (running !== undefined) return running;
    const attempt = this.sendAgain(merchant, terminal, form, job, traceparent).finally(() =>
      this.handingAgain.delete(job.printJobId),
    );
    this.handingAgain.set(job.printJobId, attempt);
    return attempt;
  }

  /** The terminal's answer is its report of the job, taken in as one from its uplink. */
  private async sendAgain(
    merchant: MerchantEntity,
    terminal: TerminalEntity,
    form: RequestForm,
    job: PrintJobEntity,
    traceparent: string | undefined,
  ): Promise<void> {
    let report: PrintJobReport;
    try {
      report = await this.sendOrder(merchant, terminal, form, job, traceparent);
    } catch (error) {
      // Unreachable, silent or refusing: the read answers the job as last heard.
      if (error instanceof ContractError) return;
      throw error;
    }
    try {
      await this.reports.ingest(terminal.serialNumber, report);
    } catch (error) {
      // A report from its uplink got there first and moved the job further: it stands.
      if (!(error instanceof PrintTransitionRefusedError)) throw error;
    }
  }

  /** Sends the job's order; the terminal answers its report of the job. */
  private sendOrder(
    merchant: MerchantEntity,
    terminal: TerminalEntity,
    form: RequestForm,
    job: PrintJobEntity,
    traceparent: string | undefined,
  ): Promise<PrintJobReport> {
    // The request's trace goes down the link with the job (contract, "Traces").
    const order: PrintOrder = {
      ...(traceparent === undefined ? {} : { traceparent }),
      printJobId: job.printJobId,
      merchantId: merchant.merchantId,
      commands: job.commands,
      webhookUrl: job.webhookUrl,
      externalReference: job.externalReference,
      clockOffsetMs: this.clock.offsetMs(merchant),
    };
    return this.links.send<PrintJobReport>(
      terminal,
      form,
      { type: 'print', job: order },
      this.config.PRINT_HANDOFF_TIMEOUT_MS,
    );
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
