import type { ConsoleClient } from '../api/client';
import type { TerminalRecord, TransactionEvent } from '../model/types';
import { TerminalCard } from './TerminalCard';

interface WallProps {
  client: ConsoleClient;
  fleet: TerminalRecord[];
  lastEvent: Record<string, TransactionEvent | undefined>;
  onTerminal: (terminal: TerminalRecord) => void;
  onRefresh: () => void;
}

/** One card per terminal of the merchant's fleet, drawn as its screen, live. */
export function Wall({ client, fleet, lastEvent, onTerminal, onRefresh }: WallProps) {
  return (
    <section class="panel wall" aria-labelledby="wall-title">
      <h2 id="wall-title">Terminals</h2>
      {fleet.length === 0 && <p>No terminal yet.</p>}
      <div class="wall-grid">
        {fleet.map((terminal) => (
          <TerminalCard
            key={terminal.serialNumber}
            client={client}
            terminal={terminal}
            last={lastEvent[terminal.serialNumber]}
            onTerminal={onTerminal}
            onRefresh={onRefresh}
          />
        ))}
      </div>
    </section>
  );
}
