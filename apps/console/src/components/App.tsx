import { useState } from 'preact/hooks';
import type { ConsoleClient } from '../api/client';
import { Console } from './Console';
import { SignIn } from './SignIn';

/** The secret lives only in this page's memory, as a non-extractable key: a reload signs out. */
export function App() {
  const [client, setClient] = useState<ConsoleClient | null>(null);
  if (client === null) return <SignIn onSignedIn={setClient} />;
  return <Console client={client} onSignOut={() => setClient(null)} />;
}
