import { InitialTerminalSchema1795334400000 } from './1795334400000-initial-schema';
import { TerminalPrintJobs1795334800000 } from './1795334800000-print-jobs';

/** The terminal simulator's migrations, oldest first. */
export const TERMINAL_MIGRATIONS = [InitialTerminalSchema1795334400000, TerminalPrintJobs1795334800000];
