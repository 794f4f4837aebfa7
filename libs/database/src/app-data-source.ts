import type { TypeOrmModuleAsyncOptions } from '@nestjs/typeorm';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { closeDataSource } from './close-data-source';
import { openDataSource } from './open-data-source';
import type { DatabaseNotes } from './store-adapter';

/** The shutdown hook of an app's data source: closes it as its store must be closed. */
export class DataSourceClose {
  constructor(private readonly dataSource: DataSource) {}

  onApplicationShutdown(): Promise<void> {
    return closeDataSource(this.dataSource);
  }
}

/**
 * An app's data source, for TypeOrmModule.forRootAsync: opened as its store opens one
 * (openDataSource), closed as its store closes one (closeDataSource). TypeORM's module closes it
 * with `destroy` alone, which fails on SQLite while statements are kept: the close is a provider
 * of that module (extraProviders), and NestJS runs a module's providers' shutdown hooks before
 * the module's own, so the data source is closed where TypeORM's module would close it, and found
 * closed there.
 */
export function appDataSource(options: DataSourceOptions, notes: DatabaseNotes): TypeOrmModuleAsyncOptions {
  return {
    useFactory: () => options,
    dataSourceFactory: () => openDataSource(options, notes),
    extraProviders: [
      {
        provide: DataSourceClose,
        useFactory: (dataSource: DataSource) => new DataSourceClose(dataSource),
        inject: [DataSource],
      },
    ],
  };
}
