import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { API_MIGRATIONS, dataSourceOptions } from '@tps/database';
import { ContractExceptionFilter } from '@tps/http';
import { AuthModule } from './auth/auth.module';
import { MerchantEntity } from './auth/merchant.entity';
import { ApiConfig } from './config/api-config';
import { HealthController } from './health/health.controller';
import { LinkModule } from './link/link.module';
import { PaymentsModule } from './payments/payments.module';
import { PrintJobEntity } from './print/print-job.entity';
import { PrintModule } from './print/print.module';
import { SandboxModule } from './sandbox/sandbox.module';
import { SandboxSeed } from './seed/sandbox-seed';
import { TerminalEntity } from './terminals/terminal.entity';
import { TerminalsModule } from './terminals/terminals.module';
import { TransactionEventEntity } from './transactions/transaction-event.entity';
import { TransactionEntity } from './transactions/transaction.entity';

export const API_ENTITIES = [
  MerchantEntity,
  TerminalEntity,
  TransactionEntity,
  TransactionEventEntity,
  PrintJobEntity,
];

@Module({})
export class AppModule {
  static forConfig(config: ApiConfig): DynamicModule {
    const sandboxOnly = config.PROFILE === 'sandbox' ? [SandboxModule] : [];
    return {
      module: AppModule,
      global: true,
      imports: [
        TypeOrmModule.forRoot(
          dataSourceOptions({ url: config.DATABASE_URL, entities: API_ENTITIES, migrations: API_MIGRATIONS }),
        ),
        AuthModule,
        TerminalsModule,
        LinkModule,
        PaymentsModule,
        PrintModule,
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
