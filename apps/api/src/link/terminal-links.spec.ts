import { randomUUID } from 'node:crypto';
import type { LinkEvent, LinkPeer, UplinkNotice } from '@tps/link';
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

  describe('while the replica drains', () => {
    /** An uplink whose terminal answers when told to. */
    function uplinkAnsweringLater() {
      let answer: (reply: unknown) => void = () => undefined;
      const closed: number[] = [];
      const peer = {
        isOpen: true,
        request: () => new Promise((resolve) => (answer = resolve)),
        close: (code: number) => closed.push(code),
      } as unknown as LinkPeer;
      return { peer, answer: (reply: unknown) => answer(reply), closed };
    }

    it('counts the requests under way on its links until their replies come', async () => {
      const links = new TerminalLinks(LOCAL_ONLY, { FLEET_SHARES: 1 } as ApiConfig);
      const uplink = uplinkAnsweringLater();
      links.attachUplink('SIM0000002', uplink.peer, { share: 'shard-1', instance: 'i', epoch: 1 });
      const reply = links.sendHere('uplink', 'SIM0000002', { type: 'operation' }, 5000);
      expect(links.requestsInFlight).toBe(1);
      uplink.answer({ events: [] });
      await expect(reply).resolves.toEqual({ events: [] });
      expect(links.requestsInFlight).toBe(0);
    });

    it('sends nothing new once told to stop: 503 TER-001, nothing was sent; what is under way still gets its reply', async () => {
      const links = new TerminalLinks(LOCAL_ONLY, { FLEET_SHARES: 1 } as ApiConfig);
      const uplink = uplinkAnsweringLater();
      const sent = jest.spyOn(uplink.peer, 'request');
      links.attachUplink('SIM0000002', uplink.peer, { share: 'shard-1', instance: 'i', epoch: 1 });
      const underWay = links.sendHere('uplink', 'SIM0000002', { type: 'operation' }, 5000);
      links.handBack();
      await expect(links.sendHere('uplink', 'SIM0000002', { type: 'operation' }, 5000)).rejects.toMatchObject(
        {
          code: 'TER-001',
          status: 503,
        },
      );
      expect(sent).toHaveBeenCalledTimes(1);
      expect(uplink.closed).toEqual([]);
      uplink.answer({ events: [] });
      await expect(underWay).resolves.toEqual({ events: [] });
      expect(links.requestsInFlight).toBe(0);
      // Nothing under way on it any more: it is closed, and its terminal links again elsewhere.
      expect(uplink.closed).toEqual([1001]);
    });

    it('closes the links with nothing under way at once', () => {
      const links = new TerminalLinks(LOCAL_ONLY, { FLEET_SHARES: 1 } as ApiConfig);
      const idle = uplinkAnsweringLater();
      const busy = uplinkAnsweringLater();
      links.attachUplink('SIM0000001', idle.peer, { share: 'fleet', instance: 'i', epoch: 1 });
      links.attachUplink('SIM0000002', busy.peer, { share: 'fleet', instance: 'i', epoch: 1 });
      void links.sendHere('uplink', 'SIM0000002', { type: 'operation' }, 5000);
      links.handBack();
      expect([idle.closed, busy.closed]).toEqual([[1001], []]);
    });
  });
});
