import { ApiProperty } from '@nestjs/swagger';
import { ClockReadingDoc } from '../clock/sandbox-clock.controller';

/** OpenAPI description of one terminal of a new account. */
class AccountTerminalDoc {
  @ApiProperty({ example: 'SIM1234567' }) serialNumber!: string;
  @ApiProperty({ description: 'true for the first terminal: the one the Local form reaches' })
  bound!: boolean;
  @ApiProperty({ enum: ['up', 'down'], description: 'up unless it did not link within 5 s' }) link!: string;
}

/** OpenAPI description of `POST /sandbox/accounts`'s answer (contract §14). */
export class CreatedAccountDoc {
  @ApiProperty({ example: 'acct_0123456789abcdef01234567' }) merchant_id!: string;
  @ApiProperty({ description: 'the secret key: keep it; it is shown only here' }) secret_key!: string;
  @ApiProperty({ type: [AccountTerminalDoc] }) terminals!: AccountTerminalDoc[];
  @ApiProperty({ type: ClockReadingDoc }) clock!: ClockReadingDoc;
}

/** OpenAPI description of `POST /sandbox/reset`'s answer (contract §14). */
export class ResetAnswerDoc {
  @ApiProperty({ enum: [true] }) reset!: boolean;
  @ApiProperty({ type: ClockReadingDoc }) clock!: ClockReadingDoc;
}
