import { InitialTerminalSchema1795334400000 } from './1795334400000-initial-schema';

/** The terminal simulator's migrations, oldest first. */
export const TERMINAL_MIGRATIONS = [InitialTerminalSchema1795334400000];
