import { Global, Module } from '@nestjs/common';
import { FleetSync } from './fleet-sync';

/** Terminals written to the database by other means (the merchant CLI) are hosted and linked. */
@Global()
@Module({ providers: [FleetSync], exports: [FleetSync] })
export class FleetModule {}
