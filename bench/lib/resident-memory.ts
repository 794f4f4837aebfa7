import { readFileSync } from 'node:fs';

/** Resident set size of a process in MiB, read from /proc (Linux). */
export function residentMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  return match ? Number(match[1]) / 1024 : NaN;
}

/** CPU time (user + system) a process has used so far, in milliseconds. */
export function cpuTimeMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / 100;
}

/** A process's figure, or NaN when it is not running (a run without the simulator). */
export const ofPid = (pid: number | undefined, read: (pid: number) => number): number =>
  pid === undefined ? NaN : read(pid);

/** Both apps' resident memory before any load and after the load runs on the same processes. */
export interface LoadMemory {
  idleApiMiB: number;
  idleSimulatorMiB: number;
  loadedApiMiB: number;
  loadedSimulatorMiB: number;
  /** Transactions the processes carried between the two samples. */
  transactions: number;
}

const settle = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Both apps' resident memory, MiB. */
export interface ResidentPair {
  api: number;
  simulator: number;
}

/** Both apps' resident memory after a second without requests from the benchmark, MiB. */
export async function sampleResident(pids: {
  api: number | undefined;
  simulator: number | undefined;
}): Promise<ResidentPair> {
  await settle(1000);
  return { api: ofPid(pids.api, residentMiB), simulator: ofPid(pids.simulator, residentMiB) };
}
