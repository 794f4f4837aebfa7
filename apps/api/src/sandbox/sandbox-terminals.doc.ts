import { ApiProperty } from '@nestjs/swagger';
import { CARDHOLDER_MODES, TERMINAL_PACES } from '@tps/domain';
import { PRINTER_CONDITIONS } from './update-terminal.dto';

/** Who set `cardholder: manual`, as far as the service can tell, and when it lapses (contract §15). */
export class CardholderManualDoc {
  @ApiProperty({ format: 'date-time', description: 'when manual was set (real time, UTC)' }) setAt!: string;
  @ApiProperty({ example: '203.0.113.7', description: 'the client address that set it' }) setFrom!: string;
  @ApiProperty({ format: 'date-time', description: 'when it goes back to auto unless set again' })
  lapsesAt!: string;
}

/** OpenAPI description of a terminal record (contract §11). */
export class TerminalRecordDoc {
  @ApiProperty({ example: 'SIM0000002' }) serialNumber!: string;
  @ApiProperty({ example: 'SIM-A920' }) model!: string;
  @ApiProperty({ example: '02:00:00:00:00:01' }) wifiMac!: string;
  @ApiProperty({ example: 'front-desk' }) room!: string;
  @ApiProperty({ enum: TERMINAL_PACES }) pace!: string;
  @ApiProperty({ enum: PRINTER_CONDITIONS }) printer!: string;
  @ApiProperty({
    enum: ['up', 'down', 'offline'],
    description: 'up: linked; down: not linked; offline: cut by the sandbox',
  })
  link!: string;
  @ApiProperty({
    enum: CARDHOLDER_MODES,
    description: 'manual: every operation waits at TERMINAL_ACKNOWLEDGED for the card action (contract §15)',
  })
  cardholder!: string;
  @ApiProperty({
    type: CardholderManualDoc,
    nullable: true,
    description: 'set while cardholder is manual (contract §15), else null',
  })
  cardholderManual!: CardholderManualDoc | null;
}

/** OpenAPI description of a card action's answer. */
export class CardReplyDoc {
  @ApiProperty({ format: 'uuid', description: 'the transaction waiting for the card' })
  client_transaction_id!: string;
  @ApiProperty({ enum: ['present', 'cancel'] }) action!: string;
}
