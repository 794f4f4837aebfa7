import { LinkHandBack } from './link-hand-back';
import type { RoutedRequestDesk } from './routed-request-desk';
import type { TerminalLinks } from './terminal-links';

// Nest ships as ES modules, which Jest does not load; the decorators and the classes injected
// only matter to DI.
jest.mock('@nestjs/common', () => ({ Injectable: () => () => undefined }));
jest.mock('./routed-request-desk', () => ({ RoutedRequestDesk: class {} }));
jest.mock('./terminal-links', () => ({ TerminalLinks: class {} }));

/** The links and the desk as the hand-back sees them: counts it can set. */
function parts() {
  const links = { requestsInFlight: 0, stopped: false, stopSending: () => (links.stopped = true) };
  const desk = { requestsInFlight: 0 };
  const handBack = new LinkHandBack(links as unknown as TerminalLinks, desk as unknown as RoutedRequestDesk);
  return { links, desk, handBack };
}

describe('LinkHandBack', () => {
  it('stops sending, then waits until nothing is under way on the links or handed over', async () => {
    const { links, desk, handBack } = parts();
    links.requestsInFlight = 1;
    desk.requestsInFlight = 1;
    let settled: boolean | undefined;
    const settling = handBack.settle(5000).then((value) => (settled = value));
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
