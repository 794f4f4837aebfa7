import { useState } from 'preact/hooks';
import { ConsoleClient } from '../api/client';
import { openSession } from '../api/signing';

export function SignIn({ onSignedIn }: { onSignedIn: (client: ConsoleClient) => void }) {
  const [merchantId, setMerchantId] = useState('');
  const [secret, setSecret] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event): Promise<void> => {
    // Never a form submission: the secret must not reach a URL or a request body.
    event.preventDefault();
    setBusy(true);
    setError('');
    try {
      const client = new ConsoleClient(await openSession(merchantId.trim(), secret));
      // A signed read proves the credentials before the console opens.
      const probe = await client.send('GET', '/sandbox/terminals');
      if (probe.status === 200) onSignedIn(client);
      else
        setError(
          probe.status === 401
            ? 'Unknown merchant or wrong secret key.'
            : `Sign-in failed (HTTP ${probe.status}).`,
        );
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setSecret('');
      setBusy(false);
    }
  };

  return (
    <main class="sign-in">
      <h1>Terminal Payment Service</h1>
      <p class="lead">Demo console · sandbox</p>
      <form onSubmit={(e) => void submit(e)} autocomplete="off" aria-describedby="sign-in-note">
        <label>
          Merchant id
          <input
            name="merchant"
            required
            value={merchantId}
            onInput={(e) => setMerchantId(e.currentTarget.value)}
          />
        </label>
        <label>
          Secret key
          <input
            name="secret"
            type="password"
            required
            autocomplete="off"
            value={secret}
            onInput={(e) => setSecret(e.currentTarget.value)}
          />
        </label>
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        {error !== '' && (
          <p role="alert" class="error">
            {error}
          </p>
        )}
        <p class="note" data-testid="demo-credentials">
          Trying the sandbox? Its shared demo account is merchant id <code>demo-merchant</code>, secret key{' '}
          <code>demo-secret-key</code> (README, "Demo console"); <code>POST /sandbox/accounts</code> makes an
          account of your own.
        </p>
        <p id="sign-in-note" class="note">
          Every request is signed in this browser (HMAC-SHA512, Web Crypto); the secret key is never sent.
        </p>
      </form>
    </main>
  );
}
