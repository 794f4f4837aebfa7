import { randomUUID } from 'node:crypto';
import type { LinkEvent, UplinkNotice } from '@tps/link';
import type { ApiConfig } from '../config/api-config';
import { LOCAL_ONLY, type LinkRouting } from '../routing/link-routing';
import type { TerminalEntity } from '../terminals/terminal.entity';
import { TerminalLinks } from './terminal-links';

// Nest ships as ES modules, which Jest does not load; the decorators only matter to DI.
jest.mock('@nestjs/common', () => ({ Injectable: () => () => undefined, Inject: () => () => undefined }));

function runOf(clientTransactionId: string): LinkEvent[] {
  return ['TERMINAL_ACKNOWLEDGED', 'APPROVAL'].map(
    (status) =>
      ({
        event: {
          event_id: randomUUID(),
          status,
          merchant_id: 'demo-merchant',
          client_transaction_id: clientTransactionId,
        },
      }) as unknown as LinkEvent,
  );
}

describe('TerminalLinks', () => {
  it("passes a routed operation's stored notice on to the replica that holds the terminal's uplink", () => {
    const relayed: Array<{ serial: string; notice: UplinkNotice }> = [];
    const routing: LinkRouting = {
      ...LOCAL_ONLY,
      noticeElsewhere: (serial, notice) => relayed.push({ serial, notice }),
    };
    const links = new TerminalLinks(routing, { FLEET_SHARES: 1 } as ApiConfig);
    const id = randomUUID();
    const run = runOf(id);
    links.stored({ serialNumber: 'SIM0000002' } as TerminalEntity, run);
    expect(relayed).toEqual([
      {
        serial: 'SIM0000002',
        notice: {
          type: 'stored',
          merchantId: 'demo-merchant',
          clientTransactionId: id,
          eventIds: run.map((link) => link.event.event_id),
        },
      },
    ]);
  });
});
