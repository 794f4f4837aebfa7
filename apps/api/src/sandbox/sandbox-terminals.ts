import { Injectable } from '@nestjs/common';
import type { MerchantEntity } from '../auth/merchant.entity';
import { TerminalLinks, type LinkState } from '../link/terminal-links';
import type { TerminalEntity } from '../terminals/terminal.entity';
import { TerminalRepository } from '../terminals/terminal.repository';
import { TerminalResolver } from '../terminals/terminal-resolver';
import type { UpdateTerminalDto } from './update-terminal.dto';

/** A terminal as the sandbox control routes answer it (contract §11). */
export interface TerminalRecord {
  serialNumber: string;
  model: string;
  wifiMac: string;
  room: string;
  pace: string;
  printer: string;
  link: LinkState;
}

const HOST_TIMEOUT_MS = 5000;

@Injectable()
export class SandboxTerminals {
  constructor(
    private readonly resolver: TerminalResolver,
    private readonly terminals: TerminalRepository,
    private readonly links: TerminalLinks,
  ) {}

  record(terminal: TerminalEntity): TerminalRecord {
    return {
      serialNumber: terminal.serialNumber,
      model: terminal.model,
      wifiMac: terminal.wifiMac,
      room: terminal.room,
      pace: terminal.pace,
      printer: terminal.printer,
      link: this.links.state(terminal),
    };
  }

  async update(
    merchant: MerchantEntity,
    serial: string,
    changes: UpdateTerminalDto,
  ): Promise<TerminalRecord> {
    const terminal = await this.resolver.resolve(merchant, serial);
    if (changes.pace !== undefined) terminal.pace = changes.pace;
    if (changes.printer !== undefined) terminal.printer = changes.printer;
    const saved = await this.terminals.save(terminal);
    await this.links.host(saved, HOST_TIMEOUT_MS);
    return this.record(saved);
  }
}
