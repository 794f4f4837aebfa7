import { Global, Module } from '@nestjs/common';
import { Capacity } from './capacity';

/** The hard caps of contract §22, for whichever module meets one. */
@Global()
@Module({
  providers: [Capacity],
  exports: [Capacity],
})
export class CapsModule {}
