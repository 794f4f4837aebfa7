import { LinkHandBack } from './link-hand-back';
import type { RoutedRequestDesk } from './routed-request-desk';
import type { TerminalLinks } from './terminal-links';
import type { LinkRouting } from '../routing/link-routing';

// Nest ships as ES modules, which Jest does not load; the decorators and the classes injected
// only matter to DI.
jest.mock('@nestjs/common', () => ({ Injectable: () => () => undefined, Inject: () => () => undefined }));
jest.mock('./routed-request-desk', () => ({ RoutedRequestDesk: class {} }));
jest.mock('./terminal-links', () => ({ TerminalLinks: class {} }));

/** The links, the desk and the routing as the hand-back sees them: counts it can set. */
function parts() {
  const order: string[] = [];
  const links = {
    requestsInFlight: 0,
    stopped: false,
    uplinkSerials: () => ['SIM0000001', 'SIM0000002'],
    handBack: () => {
      order.push('hand back');
      links.stopped = true;
    },
  };
  const desk = { requestsInFlight: 0 };
  const routing = {
    letGo: (serials: string[]) => {
      order.push(`let go of ${serials.join(', ')}`);
      return Promise.resolve();
    },
  };
  const handBack = new LinkHandBack(
    links as unknown as TerminalLinks,
    desk as unknown as RoutedRequestDesk,
    routing as unknown as LinkRouting,
  );
  return { links, desk, handBack, order };
}

describe('LinkHandBack', () => {
  it('stops being stored as the holder first, then hands the links back and waits until nothing is under way', async () => {
    const { links, desk, handBack, order } = parts();
    links.requestsInFlight = 1;
    desk.requestsInFlight = 1;
    let settled: boolean | undefined;
    const settling = handBack.settle(5000).then((value) => (settled = value));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(order).toEqual(['let go of SIM0000001, SIM0000002', 'hand back']);
    expect(links.stopped).toBe(true);
    links.requestsInFlight = 0;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(settled).toBeUndefined();
    desk.requestsInFlight = 0;
    await settling;
    expect(settled).toBe(true);
  });

  it('gives up at its bound, saying so', async () => {
    const { links, handBack } = parts();
    links.requestsInFlight = 1;
    await expect(handBack.settle(30)).resolves.toBe(false);
    expect(handBack.inFlight()).toBe(1);
  });
});
