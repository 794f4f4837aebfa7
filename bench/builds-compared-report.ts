import type { StoreKind } from '@tps/testing';

/** Its section of BENCHMARKS.md, one per store (BENCH_STORE). */
export const COMPARE_SECTION_TITLES: Record<StoreKind, string> = {
  sqlite: '## Before / after: alternating builds on SQLite',
  postgres: '## Before / after: alternating builds on PostgreSQL',
};
