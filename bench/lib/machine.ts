import { cpus, totalmem } from 'node:os';

export interface Machine {
  date: string;
  cores: number;
  cpu: string;
  memoryGiB: number;
  node: string;
}

export function describeMachine(): Machine {
  return {
    date: new Date().toISOString(),
    cores: cpus().length,
    cpu: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
  };
}
