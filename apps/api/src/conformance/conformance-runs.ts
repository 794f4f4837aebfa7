import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { newWebhookSecret, refusalOf, type DestinationRules } from '@tps/delivery';
import { ContractError, RateLimitedError } from '@tps/domain';
import type { MerchantEntity } from '../auth/merchant.entity';
import { Capacity } from '../caps/capacity';
import { ApiConfig, destinationRules } from '../config/api-config';
import { API_MESSAGES, type ApiMessages } from '../messages/api-messages';
import { WebhookSecretRepository } from '../webhooks/webhook-secret.repository';
import { CASE_NAMES, type CaseName } from './conformance-cases';
import type { RunReport } from './conformance-report';
import { runConformance } from './conformance-runner';
import { receiverPost } from './receiver-post';
import { receiverReport } from './receiver-report';
import { REAL_RUN_CLOCK, type RunClock, type RunLimits } from './run-ports';
import { CUT_MARGIN_MS, RUN_RECORDS, type RunRecords } from './run-records';
import { reportOf, type StoredRun } from './run-store';
import { RunTransactions } from './run-transactions';

/** Runs going on at once in the whole sandbox: each sends up to 100 requests a second. */
export const RUNS_AT_ONCE = 4;
/** A run lasts at most this long (contract §17), so a refused caller can come back then. */
export const RUN_MS = 60_000;

export interface StartedRun {
  id: string;
  url: string;
  state: 'running';
  cases: CaseName[];
}

/** Starts, keeps and reports the account's conformance runs (contract §17). */
@Injectable()
export class ConformanceRuns {
  private readonly logger = new Logger('ConformanceRuns');
  private readonly limits: RunLimits;
  private readonly clock: RunClock = REAL_RUN_CLOCK;

  constructor(
    private readonly config: ApiConfig,
    private readonly secrets: WebhookSecretRepository,
    @Inject(API_MESSAGES) private readonly messages: ApiMessages,
    private readonly transactions: RunTransactions,
    @Inject(RUN_RECORDS) private readonly records: RunRecords,
    private readonly capacity: Capacity,
  ) {
    this.limits = {
      runMs: RUN_MS,
      searchWindowMs: config.CONFORMANCE_SEARCH_WINDOW_MS,
      answerTimeoutMs: config.CONFORMANCE_ANSWER_TIMEOUT_MS,
      fastAckMs: 2000,
      burstSpreadMs: 1000,
      reportWaitMs: config.CONFORMANCE_ANSWER_TIMEOUT_MS,
    };
  }

  /** Starts a run of the account's, asked for from `clientAddress` (held to its cap, contract §22). */
  async start(
    merchant: MerchantEntity,
    clientAddress: string,
    url: string,
    cases: CaseName[] | undefined,
    reportUrl?: string,
  ): Promise<StartedRun> {
    const rules = destinationRules(this.config);
    const refusal = await refusalOf(url, rules);
    if (refusal !== null) throw new ContractError('PAR-004', `url ${refusal}`, 'url');
    if (reportUrl !== undefined) await this.checkReportUrl(reportUrl, url, rules);
    const chosen = CASE_NAMES.filter((name) => cases === undefined || cases.includes(name));
    const run: StoredRun = {
      merchantId: merchant.merchantId,
      id: randomUUID(),
      clientAddress,
      url,
      cases: chosen,
      startedAtMs: this.clock.nowMs(),
      finishedAtMs: null,
      results: [],
    };
    // Checked and saved as one, on every replica of the database: two starts at once never both
    // pass. A run of a replica that died counts until it was cut. The secret is made only then,
    // by the start that holds the account's place.
    await this.records.begin(run, run.startedAtMs - RUN_MS - CUT_MARGIN_MS, (running) =>
      this.admit(merchant, clientAddress, running),
    );
    const secret =
      merchant.webhookSecret ??
      (await this.newSecret(merchant).catch((error: unknown) => this.abandon(run, error)));
    const receiver = receiverPost(url, rules);
    // Contract §17: a run whose account is deleted (on any replica) ends at once, as if cut.
    const stop = new AbortController();
    const stopWatchingRemoval = this.messages.subscribe(
      'account.removed',
      ({ merchantId }) => {
        if (merchantId === merchant.merchantId) stop.abort();
      },
      'cluster',
    );
    void runConformance(
      { id: run.id, cases: chosen, secret },
      {
        clock: this.clock,
        stop: stop.signal,
        post: receiver.post,
        ...(reportUrl === undefined
          ? {}
          : { report: receiverReport(reportUrl, receiver.connections, this.limits.answerTimeoutMs) }),
        transactions: (kinds) => this.transactions.make(merchant, run.id, kinds),
        searches: (listener) =>
          // The receiver's searches may reach any replica.
          this.messages.subscribe(
            'search.call',
            ({ merchantId, clientTransactionId }) => {
              if (merchantId === merchant.merchantId) listener(clientTransactionId);
            },
            'cluster',
          ),
      },
      this.limits,
      (result) => {
        run.results.push(result);
        this.keep(run);
      },
    )
      .catch((error: unknown) => this.logger.error(`conformance run ${run.id} stopped: ${String(error)}`))
      .finally(() => {
        stopWatchingRemoval();
        run.finishedAtMs = this.clock.nowMs();
        this.keep(run);
        receiver.close();
      });
    return { id: run.id, url, state: 'running', cases: chosen };
  }

  /** Throws the refusal when the runs going on leave no room for one more of this account's. */
  private admit(merchant: MerchantEntity, clientAddress: string, running: StoredRun[]): void {
    const retryAfter = Math.ceil(RUN_MS / 1000);
    if (running.some((run) => run.merchantId === merchant.merchantId)) {
      throw new RateLimitedError(retryAfter, 'this account already has a conformance run going on');
    }
    this.capacity.admitConformanceRun(clientAddress, running, retryAfter);
    if (running.length >= RUNS_AT_ONCE) {
      throw new RateLimitedError(
        retryAfter,
        `the sandbox runs at most ${RUNS_AT_ONCE} conformance runs at once`,
      );
    }
  }

  async read(merchant: MerchantEntity, id: string): Promise<RunReport> {
    const run = await this.records.get(merchant.merchantId, id);
    if (run === undefined) throw new ContractError('NF-005', `conformance run ${id.slice(0, 40)} not found`);
    return reportOf(run);
  }

  async list(merchant: MerchantEntity): Promise<RunReport[]> {
    return (await this.records.list(merchant.merchantId)).map(reportOf);
  }

  /** A run saved but never begun (its secret could not be made): it ends at once, holding no place. */
  private abandon(run: StoredRun, error: unknown): never {
    run.finishedAtMs = this.clock.nowMs();
    this.keep(run);
    throw error;
  }

  /** The run as it is now, for every replica to read; a write that fails is told in the log only. */
  private keep(run: StoredRun): void {
    this.records
      .save(run)
      .catch((error: unknown) => this.logger.warn(`conformance run ${run.id} not written: ${String(error)}`));
  }

  /** Contract §17: the report is read from the receiver's own host, under the same address rules. */
  private async checkReportUrl(reportUrl: string, url: string, rules: DestinationRules): Promise<void> {
    if (new URL(reportUrl).hostname !== new URL(url).hostname) {
      throw new ContractError('PAR-004', 'report_url must be on the same host as url', 'report_url');
    }
    const refusal = await refusalOf(reportUrl, rules);
    if (refusal !== null) throw new ContractError('PAR-004', `report_url ${refusal}`, 'report_url');
  }

  /** Contract §17: a run signs with the account's secret, made for it when there is none. */
  private async newSecret(merchant: MerchantEntity): Promise<string> {
    const secret = newWebhookSecret();
    await this.secrets.set(merchant.merchantId, secret);
    return secret;
  }
}
