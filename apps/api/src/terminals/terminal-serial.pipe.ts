import { Injectable, type PipeTransform } from '@nestjs/common';
import { SERIAL_PATTERN } from '@tps/contracts/dto';
import { ContractError } from '@tps/domain';

/** A serial that cannot exist is answered as an unknown terminal, before any lookup. */
@Injectable()
export class TerminalSerialPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!SERIAL_PATTERN.test(value))
      throw new ContractError('NF-002', `terminal ${value.slice(0, 40)} not found`);
    return value;
  }
}
