import type { Logger } from 'typeorm';

/**
 * A TypeORM logger that keeps each statement a data source sends to the server, its text as
 * TypeORM hands it to node-postgres (a named prepared statement's too): for specs that show what a
 * write sends. Give it as `logger` with `logging: ['query']`.
 */
export class StatementLog implements Logger {
  texts: string[] = [];

  /** Each statement by its first word, a transaction's start as BEGIN. */
  get firstWords(): string[] {
    return this.texts.map((text) => (text.startsWith('START TRANSACTION') ? 'BEGIN' : text.split(' ')[0]));
  }

  clear(): void {
    this.texts = [];
  }

  logQuery(query: string | { text: string }): void {
    this.texts.push(typeof query === 'string' ? query : query.text);
  }

  logQueryError(): void {}
  logQuerySlow(): void {}
  logSchemaBuild(): void {}
  logMigration(): void {}
  log(): void {}
}
