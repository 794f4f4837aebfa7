import { createServer, type AddressInfo } from 'node:net';
import { sandboxUrlOf } from '../examples/webhook-receiver/sandbox-url';
import { searchTransaction } from '../examples/webhook-receiver/transaction-search';

describe('the reference webhook receiver finds the sandbox as the other tools do', () => {
  it('reads SANDBOX_URL, else API_PORT, else PORT, else 3000', () => {
    expect(sandboxUrlOf({ SANDBOX_URL: 'http://sandbox.test:8080/', API_PORT: '5000' })).toBe(
      'http://sandbox.test:8080',
    );
    expect(sandboxUrlOf({ API_PORT: '5000', PORT: '6000' })).toBe('http://127.0.0.1:5000');
    expect(sandboxUrlOf({ PORT: '6000' })).toBe('http://127.0.0.1:6000');
    expect(sandboxUrlOf({})).toBe('http://127.0.0.1:3000');
  });

  it('names the URL it could not reach, and why', async () => {
    // A port that was free a moment ago: nobody listens on it.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const access = { baseUrl: `http://127.0.0.1:${port}`, merchantId: 'demo-merchant', secretKey: 'x' };
    await expect(searchTransaction(access, 'c1')).rejects.toThrow(
      `transaction search: could not reach http://127.0.0.1:${port}/terminal/v1/sync/transaction_search_online (connect ECONNREFUSED 127.0.0.1:${port})`,
    );
  });
});
