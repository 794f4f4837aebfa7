import 'reflect-metadata';
import { SIMULATOR_CONTROL_SIDE, TERMINAL_UPLINK_SIDE, type LinkEvent, type LinkPeer } from '@tps/link';
import { ApiConfig } from '../config/api-config';
import { TerminalEntity } from '../terminals/terminal.entity';
import { TerminalLinks, terminalProfile } from './terminal-links';
import { LOCAL_ONLY } from '../routing/link-routing';

// Nest ships as ES modules, which Jest does not load; the decorators only matter to DI.
jest.mock('@nestjs/common', () => ({ Injectable: () => () => undefined, Inject: () => () => undefined }));

function terminal(serialNumber = 'SIM0000001'): TerminalEntity {
  return Object.assign(new TerminalEntity(), {
    serialNumber,
    merchantId: 'demo-merchant',
    model: 'SIM-A920',
    wifiMac: '02:00:00:00:00:01',
    room: 'lab',
    pace: 'instant',
    printer: 'ok',
    offline: false,
    cardholder: 'manual',
    cardholderSetAt: '2026-11-26T06:00:00.000Z',
    cardholderSetFrom: '127.0.0.1',
  });
}

/** A link end that records what the service sends on it. */
function recordingPeer(): { peer: LinkPeer; notices: unknown[]; requests: unknown[] } {
  const notices: unknown[] = [];
  const requests: unknown[] = [];
  const peer = {
    isOpen: true,
    notify: (body: unknown) => notices.push(body),
    request: (body: unknown) => {
      requests.push(body);
      return Promise.resolve({ hosted: 'SIM0000001' });
    },
    terminate: () => undefined,
  } as unknown as LinkPeer;
  return { peer, notices, requests };
}

/** What the service sends, built by the code that sends it, passes the simulator's checks. */
describe('the service’s messages as the simulator checks them', () => {
  it('a terminal profile, in a host request, a reset and the fleet notice', () => {
    const profile = terminalProfile(terminal());
    for (const message of [
      { type: 'host', terminal: profile },
      { type: 'reset', terminals: [profile] },
    ]) {
      expect(SIMULATOR_CONTROL_SIDE.requests.check(message)).toEqual({ ok: true, value: message });
    }
    const fleet = { type: 'fleet', terminals: [profile] };
    expect(SIMULATOR_CONTROL_SIDE.notices.check(fleet)).toEqual({ ok: true, value: fleet });
  });

  it('the host request the control link carries', async () => {
    const links = new TerminalLinks(LOCAL_ONLY, new ApiConfig());
    const { peer, requests } = recordingPeer();
    links.attachControl({ share: 'fleet', instance: 'abc', epoch: 1, link: 1, since: 0 }, peer);
    await links.host(terminal(), 1000);
    expect(requests).toHaveLength(1);
    expect(SIMULATOR_CONTROL_SIDE.requests.check(requests[0]).ok).toBe(true);
  });

  it('a terminal of a split fleet is hosted over its own share’s control link', async () => {
    const links = new TerminalLinks(LOCAL_ONLY, Object.assign(new ApiConfig(), { FLEET_SHARES: 2 }));
    const shard1 = recordingPeer();
    const shard2 = recordingPeer();
    links.attachControl({ share: 'shard-1', instance: 'abc', epoch: 1, link: 1, since: 0 }, shard1.peer);
    links.attachControl({ share: 'shard-2', instance: 'def', epoch: 1, link: 2, since: 0 }, shard2.peer);
    // The seeded serials split two ways: SIM0000002 in shard-1, SIM0000001 in shard-2.
    await links.host(terminal('SIM0000002'), 1000);
    await links.host(terminal('SIM0000001'), 1000);
    expect(shard1.requests).toEqual([
      expect.objectContaining({ terminal: expect.objectContaining({ serialNumber: 'SIM0000002' }) }),
    ]);
    expect(shard2.requests).toEqual([
      expect.objectContaining({ terminal: expect.objectContaining({ serialNumber: 'SIM0000001' }) }),
    ]);
  });

  it('the stored notice down a terminal’s uplink', () => {
    const links = new TerminalLinks(LOCAL_ONLY, new ApiConfig());
    const { peer, notices } = recordingPeer();
    links.attachUplink('SIM0000001', peer, { share: 'fleet', instance: 'abc', epoch: 1 });
    const event = { event_id: 'e1', merchant_id: 'demo-merchant', client_transaction_id: 'c1' };
    links.stored(terminal(), [{ event } as LinkEvent]);
    expect(notices).toHaveLength(1);
    expect(TERMINAL_UPLINK_SIDE.notices.check(notices[0])).toEqual({ ok: true, value: notices[0] });
  });
});
