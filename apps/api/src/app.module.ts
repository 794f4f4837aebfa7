import { TracingShutdown } from '@tps/observability';
import { Logger, Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import {
  API_MIGRATIONS,
  DatabaseProbe,
  SerialWriter,
  openSerialWriter,
  dataSourceOptions,
  databaseWaits,
  appDataSource,
  portsOf,
} from '@tps/database';
import { DataSource } from 'typeorm';
import { AbortModule } from './abort/abort.module';
import { AccountsModule } from './accounts/accounts.module';
import { API_ENTITIES } from './api-entities';
import { AuthModule } from './auth/auth.module';
import { MerchantAuthGuard } from './auth/merchant-auth.guard';
import { SandboxClockModule } from './clock/clock.module';
import { ConformanceModule } from './conformance/conformance.module';
import { ConsoleModule } from './console/console.module';
import { ApiConfig } from './config/api-config';
import { DeliveriesModule } from './deliveries/deliveries.module';
import { OpenConnections } from './drain/open-connections';
import { RequestDrain } from './drain/request-drain';
import { FleetModule } from './fleet/fleet.module';
import { WebhookDestinationGuard } from './destinations/webhook-destination.guard';
import { HealthController } from './health/health.controller';
import { HomeController } from './home/home.controller';
import { ReadyController } from './health/ready.controller';
import { LinkModule } from './link/link.module';
import { ListenModule } from './listen/listen.module';
import { LiveModule } from './live/live.module';
import { MessagesModule } from './messages/messages.module';
import { MeteredExceptionFilter } from './metrics/metered-exception.filter';
import { MetricsModule } from './metrics/metrics.module';
import { CapsModule } from './caps/caps.module';
import { PaymentsModule } from './payments/payments.module';
import { PrintModule } from './print/print.module';
import { RequestLogModule } from './request-log/request-log.module';
import { RoutingModule } from './routing/routing.module';
import { SandboxModule } from './sandbox/sandbox.module';
import { SearchModule } from './search/search.module';
import { RetentionModule } from './retention/retention.module';
import { SecretsModule } from './secrets/secrets.module';
import { SandboxSeed } from './seed/sandbox-seed';
import { TerminalsModule } from './terminals/terminals.module';
import { WebhooksModule } from './webhooks/webhooks.module';

@Module({})
export class AppModule {
  static forConfig(config: ApiConfig): DynamicModule {
    const sandboxOnly =
      config.PROFILE === 'sandbox'
        ? [
            SandboxModule,
            SandboxClockModule,
            DeliveriesModule,
            ConsoleModule,
            AccountsModule,
            ConformanceModule,
            ListenModule,
            RequestLogModule,
          ]
        : [];
    const database = dataSourceOptions({
      url: config.DATABASE_URL,
      directUrl: config.DATABASE_DIRECT_URL,
      waits: databaseWaits(config),
      entities: API_ENTITIES,
      migrations: API_MIGRATIONS,
      poolSize: config.DATABASE_POOL_SIZE,
      applicationName: 'tps-api',
    });
    return {
      module: AppModule,
      global: true,
      imports: [
        // Opened and closed as its store does: on PostgreSQL migrated under its advisory lock
        // (several processes may start together), on SQLite closed with its kept statements.
        TypeOrmModule.forRootAsync(appDataSource(database, new Logger('Database'))),
        AuthModule,
        MessagesModule,
        RoutingModule,
        MetricsModule,
        CapsModule,
        LiveModule,
        WebhooksModule,
        TerminalsModule,
        LinkModule,
        PaymentsModule,
        SearchModule,
        AbortModule,
        PrintModule,
        FleetModule,
        SecretsModule,
        RetentionModule,
        ...sandboxOnly,
      ],
      controllers: [HomeController, HealthController, ReadyController],
      providers: [
        TracingShutdown,
        // The one write queue of the service's database, on its own connection, shared by every repository.
        {
          provide: SerialWriter,
          useFactory: openSerialWriter,
          inject: [DataSource],
        },
        {
          provide: DatabaseProbe,
          useFactory: (reads: DataSource) => portsOf(reads).probe(reads),
          inject: [DataSource],
        },
        { provide: ApiConfig, useValue: config },
        { provide: RequestDrain, useFactory: () => new RequestDrain() },
        { provide: OpenConnections, useFactory: () => new OpenConnections() },
        { provide: APP_FILTER, useClass: MeteredExceptionFilter },
        // Global guards run in this order: authentication first, then the destination check.
        { provide: APP_GUARD, useExisting: MerchantAuthGuard },
        { provide: APP_GUARD, useClass: WebhookDestinationGuard },
        SandboxSeed,
      ],
      exports: [ApiConfig, SerialWriter, DatabaseProbe],
    };
  }
}
