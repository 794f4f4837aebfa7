import { TracingShutdown } from '@tps/observability';
import { Logger, Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import {
  SerialWriter,
  TERMINAL_MIGRATIONS,
  openSerialWriter,
  dataSourceOptions,
  databaseWaits,
  appDataSource,
  portsOf,
} from '@tps/database';
import { DataSource } from 'typeorm';
import { ContractExceptionFilter } from '@tps/http';
import { SimulatorConfig } from './config/simulator-config';
import { Fleet } from './fleet/fleet';
import { HealthController } from './health/health.controller';
import { ControlLink } from './link/control-link';
import { ShareMembership } from './link/share-membership';
import { LocalSearch } from './search/local-search';
import { PrintStore } from './printer/print-store';
import { TerminalPrintJobEntity } from './printer/terminal-print-job.entity';
import { TerminalEventEntity } from './store/terminal-event.entity';
import { TerminalErasure } from './store/terminal-erasure';
import { TerminalHistory } from './store/terminal-history';
import { TerminalRetention } from './store/terminal-retention';
import { TerminalStore } from './store/terminal-store';
import { TerminalTransactionEntity } from './store/terminal-transaction.entity';

export const TERMINAL_ENTITIES = [TerminalTransactionEntity, TerminalEventEntity, TerminalPrintJobEntity];

@Module({})
export class SimulatorModule {
  static forConfig(config: SimulatorConfig): DynamicModule {
    const database = dataSourceOptions({
      url: config.DATABASE_URL,
      directUrl: config.DATABASE_DIRECT_URL,
      waits: databaseWaits(config),
      entities: TERMINAL_ENTITIES,
      migrations: TERMINAL_MIGRATIONS,
      poolSize: config.DATABASE_POOL_SIZE,
      applicationName: 'tps-terminal-simulator',
    });
    return {
      module: SimulatorModule,
      imports: [
        // Opened and closed as its store does: on PostgreSQL migrated under its advisory lock
        // (several processes may start together), on SQLite closed with its kept statements.
        TypeOrmModule.forRootAsync(appDataSource(database, new Logger('Database'))),
      ],
      controllers: [HealthController],
      providers: [
        TracingShutdown,
        // The one write queue of the terminal's database, on its own connection, shared by every store.
        {
          provide: SerialWriter,
          useFactory: openSerialWriter,
          inject: [DataSource],
        },
        { provide: SimulatorConfig, useValue: config },
        { provide: APP_FILTER, useClass: ContractExceptionFilter },
        TerminalStore,
        PrintStore,
        Fleet,
        ControlLink,
        ShareMembership,
        TerminalHistory,
        TerminalErasure,
        LocalSearch,
        {
          provide: TerminalRetention,
          useFactory: (reads: DataSource, writer: SerialWriter, fleet: Fleet) =>
            new TerminalRetention(config, portsOf(reads).terminalPurge(writer), () => fleet.serials()),
          inject: [DataSource, SerialWriter, Fleet],
        },
      ],
    };
  }
}
