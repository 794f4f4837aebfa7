import type { LeaseAdapter } from '../leased-queue/lease-adapters';

/** `share_0`… out to `depth`: the shares' columns in ranked rows. */
const shareColumns = (depth: number): string[] => Array.from({ length: depth }, (_, i) => `share_${i}`);

/**
 * LeasedQueue's statements, the same on every store but for PostgreSQL's `chosen` and `adopts`.
 * The writer holds the whole file: no row to skip, and a file serves one process.
 */
export const sqliteLeases: LeaseAdapter = {
  update: (table, sets, where, returning) =>
    `UPDATE ${table} SET ${sets} WHERE ${where}${returning === undefined ? '' : ` RETURNING ${returning}`}`,

  anyOf: (table, where) => `SELECT 1 AS claimable FROM ${table} c WHERE ${where} LIMIT 1`,

  noneOf: (table, where) => `NOT EXISTS (SELECT 1 FROM ${table} e WHERE ${where})`,

  idsOf: (table, id, where) => `SELECT c.${id} FROM ${table} c WHERE ${where}`,

  firstInOrder: (ids, order) => `${ids} ORDER BY c.${order} LIMIT ?`,

  rankedInShares: (table, id, order, shares, kept, where) =>
    `SELECT ${[`c.${id} AS id`, `c.${order} AS due`, ...shares.slice(0, kept).map((share, i) => `${share} AS share_${i}`)].join(', ')}, ` +
    `ROW_NUMBER() OVER (PARTITION BY ${shares.join(', ')} ORDER BY c.${order}) AS share_rank ` +
    `FROM ${table} c WHERE ${where}`,

  rankedInOuterShares: (ranked, depth, kept) =>
    `SELECT ${['r.id', 'r.due', ...shareColumns(kept)].join(', ')}, ` +
    `ROW_NUMBER() OVER (PARTITION BY ${shareColumns(depth).join(', ')} ORDER BY r.share_rank, r.due) AS share_rank ` +
    `FROM (${ranked}) r`,

  firstByRank: (ranked) => `SELECT s.id FROM (${ranked}) s ORDER BY s.share_rank, s.due LIMIT ?`,

  firstByRankUnderCap: (ranked, held) =>
    `SELECT s.id FROM (${ranked}) s LEFT JOIN (${held}) h ON h.share_0 = s.share_0 ` +
    'WHERE s.share_rank <= ? - COALESCE(h.held, 0) ORDER BY s.share_rank, s.due LIMIT ?',

  heldPerShare: (table, share, where) =>
    `SELECT ${share} AS share_0, COUNT(*) AS held FROM ${table} l WHERE ${where} GROUP BY ${share}`,

  startsWith: (column) => `substr(${column}, 1, ?) = ?`,

  chosen: (choose) => `IN (${choose})`,
  adopts: 'every',
};
