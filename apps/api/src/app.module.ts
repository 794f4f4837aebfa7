import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { API_MIGRATIONS, dataSourceOptions } from '@tps/database';
import { ContractExceptionFilter } from '@tps/http';
import { AuthModule } from './auth/auth.module';
import { DeliveriesModule } from './deliveries/deliveries.module';
import { MerchantEntity } from './auth/merchant.entity';
import { ApiConfig } from './config/api-config';
import { HealthController } from './health/health.controller';
import { LinkModule } from './link/link.module';
import { PaymentsModule } from './payments/payments.module';
import { SandboxModule } from './sandbox/sandbox.module';
import { SandboxSeed } from './seed/sandbox-seed';
import { TerminalEntity } from './terminals/terminal.entity';
import { TerminalsModule } from './terminals/terminals.module';
import { TransactionEventEntity } from './transactions/transaction-event.entity';
import { TransactionEntity } from './transactions/transaction.entity';
import { DeliveryAttemptEntity } from './webhooks/delivery-attempt.entity';
import { DeliveryEntity } from './webhooks/delivery.entity';
import { WebhooksModule } from './webhooks/webhooks.module';

export const API_ENTITIES = [
  MerchantEntity,
  TerminalEntity,
  TransactionEntity,
  TransactionEventEntity,
  DeliveryEntity,
  DeliveryAttemptEntity,
];

@Module({})
export class AppModule {
  static forConfig(config: ApiConfig): DynamicModule {
    const sandboxOnly = config.PROFILE === 'sandbox' ? [SandboxModule, DeliveriesModule] : [];
    return {
      module: AppModule,
      global: true,
      imports: [
        TypeOrmModule.forRoot(
          dataSourceOptions({ url: config.DATABASE_URL, entities: API_ENTITIES, migrations: API_MIGRATIONS }),
        ),
        AuthModule,
        WebhooksModule,
        TerminalsModule,
        LinkModule,
        PaymentsModule,
        ...sandboxOnly,
      ],
      controllers: [HealthController],
      providers: [
        { provide: ApiConfig, useValue: config },
        { provide: APP_FILTER, useClass: ContractExceptionFilter },
        SandboxSeed,
      ],
      exports: [ApiConfig],
    };
  }
}
