import { Inject, Injectable } from '@nestjs/common';
import { ContractError } from '@tps/domain';
import { DEFAULT_SHARE, type ControlRequest, type FleetChange } from '@tps/link';
import { DEMO_MERCHANTS } from '../auth/demo-credentials';
import { MerchantEntity } from '../auth/merchant.entity';
import { MerchantClock, type ClockReading } from '../clock/merchant-clock';
import { accountQuotas } from '../config/account-quotas';
import { ApiConfig } from '../config/api-config';
import { FleetSync } from '../fleet/fleet-sync';
import { TerminalLinks, terminalProfile, type LinkState } from '../link/terminal-links';
import { API_MESSAGES, type ApiMessages } from '../messages/api-messages';
import { newTerminal } from '../seed/sandbox-seed';
import { AccountRepository } from './account.repository';
import { newMerchantId, newSecretKey, newSerials } from './account-identity';
import type { CreateAccountDto } from './create-account.dto';

/** The terminals of an account made without saying how many (contract §14). */
export const DEFAULT_TERMINALS = 2;

/** One terminal of a new account, as `POST /sandbox/accounts` answers it (contract §14). */
export interface AccountTerminal {
  serialNumber: string;
  bound: boolean;
  link: LinkState;
}

export interface CreatedAccount {
  merchant_id: string;
  secret_key: string;
  terminals: AccountTerminal[];
  clock: ClockReading;
}

export interface ResetAnswer {
  reset: true;
  clock: ClockReading;
}

const HOST_TIMEOUT_MS = 5000;
/**
 * How long an answer waits for the terminals' uplinks. They normally link in milliseconds; a
 * terminal still down after this is answered as `link: "down"` rather than holding the caller.
 */
const LINK_UP_WAIT_MS = 5000;
/** Ids and serials are random: a collision is rare, several in a row mean something else is wrong. */
const CREATE_ATTEMPTS = 5;

function simulatorNotLinked(share: string): ContractError {
  const which =
    share === DEFAULT_SHARE ? 'the terminal simulator' : `the terminal simulator of share ${share}`;
  return new ContractError(
    'TER-001',
    `${which} is not linked to the service yet; wait until GET /ready answers 200`,
  );
}

/**
 * Sandbox accounts for CI (contract §14): each an isolated merchant with its own credentials,
 * fleet, clock and webhook secret, made, reset and removed over HTTP.
 */
@Injectable()
export class SandboxAccounts {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly links: TerminalLinks,
    private readonly clock: MerchantClock,
    private readonly fleetSync: FleetSync,
    private readonly config: ApiConfig,
    @Inject(API_MESSAGES) private readonly messages: ApiMessages,
  ) {}

  /** Makes the account and answers once every terminal is hosted and linked. */
  async create(body: CreateAccountDto): Promise<CreatedAccount> {
    const pace = body.pace ?? 'instant';
    const count = body.terminals ?? DEFAULT_TERMINALS;
    const quota = accountQuotas(this.config).terminals;
    if (quota !== undefined && count > quota) {
      throw new ContractError(
        'PAR-002',
        `terminals must be at most ${quota}: the quota of terminals per account of this sandbox`,
        'terminals',
      );
    }
    for (let attempt = 1; ; attempt++) {
      const merchantId = newMerchantId();
      const fleet = newSerials(count).map((serial) => newTerminal(serial, merchantId, pace, 'front-desk'));
      await this.requireLinked(fleet.map((terminal) => terminal.serialNumber));
      const merchant = Object.assign(new MerchantEntity(), {
        merchantId,
        secretKey: newSecretKey(),
        boundTerminalSerial: fleet[0].serialNumber,
        webhookSecret: null,
        clockOffsetSeconds: 0,
      });
      if (await this.accounts.create(merchant, fleet)) {
        await Promise.all(fleet.map((terminal) => this.links.host(terminal, HOST_TIMEOUT_MS)));
        await this.links.waitUp(
          fleet.map((terminal) => terminal.serialNumber),
          LINK_UP_WAIT_MS,
        );
        const links = await this.links.statesAnywhere(fleet);
        return {
          merchant_id: merchant.merchantId,
          secret_key: merchant.secretKey,
          terminals: fleet.map((terminal, index) => ({
            serialNumber: terminal.serialNumber,
            bound: index === 0,
            link: links.get(terminal.serialNumber) ?? 'down',
          })),
          clock: this.clock.reading(merchant),
        };
      }
      if (attempt === CREATE_ATTEMPTS) throw new Error('no free merchant id or serials after several tries');
    }
  }

  /**
   * Back to a clean state: the terminals drop what runs and start again idle, online, printer ok
   * (pace kept); the merchant's transactions, events, deliveries and print jobs are erased on
   * both sides; its clock is back to real time.
   */
  async reset(merchant: MerchantEntity): Promise<ResetAnswer> {
    const serials = (await this.accounts.fleetOf(merchant.merchantId)).map((t) => t.serialNumber);
    await this.requireLinked(serials);
    await this.fleetSync.holding(serials, async () => {
      // The uplinks as they were, on any replica: the answer waits for new ones.
      const before = await this.links.uplinksAnywhere(serials);
      const fleet = await this.accounts.restoreFleet(merchant.merchantId);
      // Cut here first, so that the answer waits for the new uplinks, not the old ones closing.
      for (const terminal of fleet) this.links.cutUplink(terminal.serialNumber);
      for (const [share, terminals] of this.byShare(fleet.map(terminalProfile), (t) => t.serialNumber)) {
        await this.changeFleet(share, terminals[0].serialNumber, { type: 'reset', terminals });
      }
      // After the terminals' stores: an event they had queued can no longer arrive once this is done.
      await this.accounts.eraseActivity(merchant.merchantId);
      await this.links.waitUp(
        fleet.map((terminal) => terminal.serialNumber),
        LINK_UP_WAIT_MS,
        before,
      );
    });
    merchant.clockOffsetSeconds = 0;
    return { reset: true, clock: this.clock.reading(merchant) };
  }

  /**
   * Removes the account, its terminals (on the simulator too) and everything they did. By its id
   * alone: its secrets are not opened, so an account whose secrets are sealed under a key this
   * process lacks goes too (contract, "Retention").
   */
  async remove(merchantId: string): Promise<void> {
    if (DEMO_MERCHANTS.some((seed) => seed.merchantId === merchantId)) {
      throw new ContractError(
        'TRX-006',
        'the demo merchants are shared and cannot be deleted; create your own with POST /sandbox/accounts',
      );
    }
    const held = (await this.accounts.fleetOf(merchantId)).map((t) => t.serialNumber);
    await this.fleetSync.holding(held, async () => {
      // The fleet as the removal found it: a terminal added since the read above is in it.
      const serials = await this.accounts.remove(merchantId);
      this.messages.publish('account.removed', { merchantId });
      for (const serial of serials) this.links.cutUplink(serial);
      for (const [share, removed] of this.byShare(serials, (serial) => serial)) {
        // Without its simulator, the fleet it gets when it links again no longer lists these terminals.
        if (await this.links.controlLinked(share)) {
          await this.changeFleet(share, removed[0], { type: 'remove', serials: removed });
        }
      }
    });
  }

  /** Every share these terminals belong to has its simulator linked to some replica. */
  private async requireLinked(serials: string[]): Promise<void> {
    for (const share of this.byShare(serials, (serial) => serial).keys()) {
      if (!(await this.links.controlLinked(share))) throw simulatorNotLinked(share);
    }
  }

  /** Terminals grouped by their fleet share: a fleet change goes to each share's simulator. */
  private byShare<T>(items: T[], serialOf: (item: T) => string): Map<string, T[]> {
    const groups = new Map<string, T[]>();
    for (const item of items) {
      const share = this.links.shareOf(serialOf(item));
      groups.set(share, [...(groups.get(share) ?? []), item]);
    }
    return groups;
  }

  /** Over the share's control link, on whichever replica holds it (`serial`: one of the share's terminals). */
  private async changeFleet(share: string, serial: string, request: ControlRequest): Promise<FleetChange> {
    try {
      return (await this.links.control(serial, request, HOST_TIMEOUT_MS)) as FleetChange;
    } catch (error) {
      if (error instanceof ContractError && (error.code === 'TER-001' || error.code === 'TER-002')) {
        throw simulatorNotLinked(share);
      }
      throw error;
    }
  }
}
