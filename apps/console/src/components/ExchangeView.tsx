import { useState } from 'preact/hooks';
import { curlOf, type Exchange } from '../api/client';

function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/** A request beside its answer, with the same signed request as a curl command. */
export function ExchangeView({ exchange }: { exchange: Exchange }) {
  const [copied, setCopied] = useState(false);
  const curl = curlOf(window.location.origin, exchange);
  const copy = async (): Promise<void> => {
    await navigator.clipboard.writeText(curl).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  return (
    <div class="exchange" data-testid="exchange">
      <div class="exchange-pair">
        <figure>
          <figcaption>
            Request · {exchange.method} {exchange.path}
          </figcaption>
          <pre>{exchange.body === '' ? '(no body)' : pretty(exchange.body)}</pre>
        </figure>
        <figure>
          <figcaption>Answer · HTTP {exchange.status}</figcaption>
          <pre data-testid="answer">{JSON.stringify(exchange.answer, null, 2)}</pre>
        </figure>
      </div>
      <figure>
        <figcaption>
          The same signed request with curl (valid 5 minutes){' '}
          <button class="quiet" onClick={() => void copy()}>
            {copied ? 'Copied' : 'Copy curl'}
          </button>
        </figcaption>
        <pre class="curl" data-testid="curl">
          {curl}
        </pre>
      </figure>
    </div>
  );
}
