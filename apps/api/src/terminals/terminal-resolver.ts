import { Injectable } from '@nestjs/common';
import { ContractError } from '@tps/domain';
import { PrefetchedTerminals } from './prefetched-terminals';
import type { TerminalEntity } from './terminal.entity';
import type { TerminalOwner } from './terminal-owner';
import { TerminalRepository } from './terminal.repository';

/** Which terminal a request is for: the path's serial (Cloud form) or the bound one (Local form). */
@Injectable()
export class TerminalResolver {
  constructor(
    private readonly terminals: TerminalRepository,
    private readonly prefetched: PrefetchedTerminals,
  ) {}

  async resolve(merchant: TerminalOwner, serial: string | undefined): Promise<TerminalEntity> {
    const wanted = serial ?? merchant.boundTerminalSerial;
    if (wanted === null) {
      throw new ContractError(
        'NF-002',
        'no terminal is bound to these credentials for the Local form; name one in the path (Cloud form)',
      );
    }
    const prefetched = this.prefetched.take(merchant, wanted);
    const terminal =
      prefetched !== undefined
        ? prefetched
        : await this.terminals.findForMerchant(merchant.merchantId, wanted);
    if (terminal === null) throw new ContractError('NF-002', `terminal ${wanted} not found`);
    return terminal;
  }
}
