import { createHash, randomInt } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { chooseCardholder, ContractError, type CardholderMode } from '@tps/domain';
import type { CardAction, CardReply } from '@tps/link';
import type { MerchantEntity } from '../auth/merchant.entity';
import { accountQuotas } from '../config/account-quotas';
import { Capacity } from '../caps/capacity';
import { ApiConfig, isHosted } from '../config/api-config';
import { TerminalLinks, type LinkState } from '../link/terminal-links';
import { DEFAULT_MODEL } from '../seed/sandbox-seed';
import { TerminalEntity } from '../terminals/terminal.entity';
import { TerminalRepository } from '../terminals/terminal.repository';
import { TerminalResolver } from '../terminals/terminal-resolver';
import {
  cardholderManualRecord,
  cardholderOf,
  storeCardholder,
  type CardholderManualRecord,
} from './cardholder-of-terminal';
import type { CreateTerminalDto } from './create-terminal.dto';
import { RealClock } from './real-clock';
import { serialOutOfScope } from './serial-scope';
import type { UpdateTerminalDto } from './update-terminal.dto';

/** A terminal as the sandbox control routes answer it (contract §11). */
export interface TerminalRecord {
  serialNumber: string;
  model: string;
  wifiMac: string;
  room: string;
  pace: string;
  printer: string;
  cardholder: CardholderMode;
  /** Contract §15: since when, from which client address, and until when `manual` holds. */
  cardholderManual: CardholderManualRecord | null;
  link: LinkState;
}

const HOST_TIMEOUT_MS = 5000;
/** Contract §11: a new terminal links up within a second; the answer waits that long at most. */
const LINK_UP_WAIT_MS = 1000;

/** A locally administered MAC derived from the serial, so a terminal keeps it across restarts. */
function macFor(serial: string): string {
  const bytes = createHash('sha256').update(serial).digest().subarray(0, 5);
  return ['02', ...[...bytes].map((b) => b.toString(16).padStart(2, '0'))].join(':').toUpperCase();
}

@Injectable()
export class SandboxTerminals {
  constructor(
    private readonly config: ApiConfig,
    private readonly resolver: TerminalResolver,
    private readonly terminals: TerminalRepository,
    private readonly links: TerminalLinks,
    private readonly clock: RealClock,
    private readonly capacity: Capacity,
  ) {}

  private record(terminal: TerminalEntity, link: LinkState): TerminalRecord {
    // As stored: the lapse sweep stores `auto` only once the simulator hosts the terminal so.
    const cardholder = cardholderOf(terminal);
    return {
      serialNumber: terminal.serialNumber,
      model: terminal.model,
      wifiMac: terminal.wifiMac,
      room: terminal.room,
      pace: terminal.pace,
      printer: terminal.printer,
      cardholder: cardholder.mode,
      cardholderManual: cardholderManualRecord(cardholder, this.config.CARDHOLDER_MANUAL_LAPSE_MS),
      link,
    };
  }

  /** Link state as any live replica holds it (contract, "Several replicas on one PostgreSQL database"). */
  private async records(terminals: TerminalEntity[]): Promise<TerminalRecord[]> {
    const links = await this.links.statesAnywhere(terminals);
    return terminals.map((terminal) => this.record(terminal, links.get(terminal.serialNumber) ?? 'down'));
  }

  private async recordOf(terminal: TerminalEntity): Promise<TerminalRecord> {
    const [record] = await this.records([terminal]);
    return record;
  }

  async list(merchant: MerchantEntity): Promise<TerminalRecord[]> {
    return this.records(await this.terminals.listForMerchant(merchant.merchantId));
  }

  /**
   * Adds a simulated terminal to the merchant's fleet; the simulator starts hosting it. Held to the
   * account's quota of terminals, unless `quota` is 'exempt' (the conformance run's own terminal).
   */
  async create(
    merchant: MerchantEntity,
    body: CreateTerminalDto,
    quota: 'held' | 'exempt' = 'held',
  ): Promise<TerminalRecord> {
    const outOfScope =
      body.serial !== undefined && isHosted(this.config)
        ? serialOutOfScope(merchant.merchantId, body.serial)
        : undefined;
    if (outOfScope !== undefined) throw new ContractError('PAR-002', outOfScope, 'serial');
    const serial = body.serial ?? (await this.freeSerial());
    const terminal = Object.assign(new TerminalEntity(), {
      serialNumber: serial,
      merchantId: merchant.merchantId,
      model: DEFAULT_MODEL,
      wifiMac: macFor(serial),
      room: body.room ?? 'front-desk',
      pace: body.pace ?? 'realistic',
      printer: 'ok',
      offline: false,
      cardholder: 'auto',
      cardholderSetAt: null,
      cardholderSetFrom: null,
    });
    const limit = quota === 'held' ? accountQuotas(this.config).terminals : undefined;
    const release = await this.capacity.reserveTerminals(1);
    const inserted = await this.terminals.insert(terminal, limit).finally(release);
    if (inserted === 'gone') {
      // Its account was removed while the terminal was being added (contract §14).
      throw new ContractError('AUTH-001', 'this account no longer exists');
    }
    if (inserted === 'taken') {
      throw new ContractError('TER-004', `serial ${serial} is already taken`, 'serial');
    }
    if (inserted === 'full') {
      throw new ContractError(
        'TER-005',
        `this account has ${limit} terminals, the quota of terminals per account of this sandbox`,
      );
    }
    await this.links.host(terminal, HOST_TIMEOUT_MS);
    await this.dropIfAccountGone(merchant.merchantId, serial);
    await this.links.waitUp([serial], LINK_UP_WAIT_MS);
    return this.recordOf(terminal);
  }

  /**
   * The account's removal may have committed after this terminal's insert and told the simulator
   * to drop its fleet before the word to host it arrived: the simulator would then host a terminal
   * that no longer exists. Read after the simulator took it, the stored row decides; a removal
   * that commits later tells the simulator after this, in order.
   */
  private async dropIfAccountGone(merchantId: string, serial: string): Promise<void> {
    const stored = await this.terminals.findBySerial(serial);
    if (stored?.merchantId === merchantId) return;
    // The serial, freed by the removal, may already be another account's terminal: that one stays.
    if (stored === null) await this.unhost(serial);
    throw new ContractError('AUTH-001', 'this account no longer exists');
  }

  /** Not linked now, the simulator gets a fleet without the terminal when it links again. */
  private async unhost(serial: string): Promise<void> {
    try {
      await this.links.control(serial, { type: 'remove', serials: [serial] }, HOST_TIMEOUT_MS);
    } catch (error) {
      const unreachable =
        error instanceof ContractError && (error.code === 'TER-001' || error.code === 'TER-002');
      if (!unreachable) throw error;
    }
  }

  /** `from`: the caller's client address, recorded with `manual` (contract §15). */
  async update(
    merchant: MerchantEntity,
    serial: string,
    changes: UpdateTerminalDto,
    from: string,
  ): Promise<TerminalRecord> {
    const terminal = await this.resolver.resolve(merchant, serial);
    if (changes.pace !== undefined) terminal.pace = changes.pace;
    if (changes.printer !== undefined) terminal.printer = changes.printer;
    if (changes.cardholder !== undefined)
      storeCardholder(terminal, chooseCardholder(changes.cardholder, this.clock.nowMs(), from));
    const saved = await this.terminals.save(terminal);
    await this.links.host(saved, HOST_TIMEOUT_MS);
    return this.recordOf(saved);
  }

  /**
   * Cuts (or restores) the terminal's uplink. Offline, its events wait in its own store and
   * Cloud-form requests get TER-001; back online, it replays them in order (contract §10).
   */
  async setOffline(merchant: MerchantEntity, serial: string, offline: boolean): Promise<TerminalRecord> {
    const terminal = await this.resolver.resolve(merchant, serial);
    terminal.offline = offline;
    const saved = await this.terminals.save(terminal);
    if (offline) {
      await this.links.host(saved, HOST_TIMEOUT_MS);
      this.links.cutUplink(serial);
      return this.recordOf(saved);
    }
    return this.rehost(saved);
  }

  /** The cardholder acts on the terminal's screen, over its local network. */
  async card(merchant: MerchantEntity, serial: string, action: CardAction): Promise<CardReply> {
    const terminal = await this.resolver.resolve(merchant, serial);
    return this.links.send<CardReply>(
      terminal,
      'local',
      { type: 'card', card: action },
      this.config.TERMINAL_REPLY_TIMEOUT_MS,
    );
  }

  private async rehost(terminal: TerminalEntity): Promise<TerminalRecord> {
    await this.links.host(terminal, HOST_TIMEOUT_MS);
    await this.links.waitUp([terminal.serialNumber], LINK_UP_WAIT_MS);
    return this.recordOf(terminal);
  }

  private async freeSerial(): Promise<string> {
    for (;;) {
      const serial = `SIM${String(randomInt(10_000_000)).padStart(7, '0')}`;
      if ((await this.terminals.findBySerial(serial)) === null) return serial;
    }
  }
}
