import { InitialTerminalSchema1795334400000 } from './1795334400000-initial-schema';
import { TerminalPrintJobs1795334800000 } from './1795334800000-print-jobs';
import { PrintCallbackLeavesTerminal1795335300000 } from './1795335300000-print-callback-leaves-terminal';

/** The terminal simulator's migrations, oldest first. */
export const TERMINAL_MIGRATIONS = [
  InitialTerminalSchema1795334400000,
  TerminalPrintJobs1795334800000,
  PrintCallbackLeavesTerminal1795335300000,
];
