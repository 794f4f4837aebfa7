import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { TerminalPace } from '@tps/domain';
import { DEMO_MERCHANTS } from '../auth/demo-credentials';
import { MerchantEntity } from '../auth/merchant.entity';
import { MerchantRepository } from '../auth/merchant.repository';
import { ApiConfig } from '../config/api-config';
import { TerminalEntity } from '../terminals/terminal.entity';

export const DEFAULT_MODEL = 'SIM-A920';

export function simulatedMac(serial: string): string {
  const digits = serial.replace(/\D/g, '').padStart(10, '0').slice(-10);
  const pairs = digits.match(/.{2}/g) ?? [];
  return ['02', ...pairs].join(':');
}

export function newTerminal(
  serial: string,
  merchantId: string,
  pace: TerminalPace,
  room: string,
): TerminalEntity {
  return Object.assign(new TerminalEntity(), {
    serialNumber: serial,
    merchantId,
    model: DEFAULT_MODEL,
    wifiMac: simulatedMac(serial),
    room,
    pace,
    printer: 'ok',
    offline: false,
    cardholder: 'auto',
  });
}

/** Creates the demo merchants and terminals at first start (sandbox profile only). */
@Injectable()
export class SandboxSeed implements OnApplicationBootstrap {
  private readonly logger = new Logger('Seed');

  constructor(
    private readonly config: ApiConfig,
    private readonly merchants: MerchantRepository,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.PROFILE !== 'sandbox' || this.config.SEED !== 'true') return;
    for (const seed of DEMO_MERCHANTS) {
      if (await this.merchants.exists(seed.merchantId)) continue;
      const merchant = Object.assign(new MerchantEntity(), {
        merchantId: seed.merchantId,
        secretKey: seed.secretKey,
        boundTerminalSerial: seed.bound,
        webhookSecret: null,
        clockOffsetSeconds: 0,
      });
      const terminals = seed.terminals.map((serial) =>
        newTerminal(serial, seed.merchantId, 'realistic', 'front-desk'),
      );
      if (!(await this.merchants.insertWithTerminals(merchant, terminals))) continue;
      this.logger.log(`seeded ${seed.merchantId} with ${seed.terminals.join(', ')}`);
    }
  }
}
