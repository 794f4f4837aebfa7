import { Body, Controller, Get, HttpCode, Ip, Param, Patch, Post, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { SERIAL_PATTERN } from '@tps/contracts/dto';
import type { CardReply } from '@tps/link';
import { CurrentMerchant } from '../auth/current-merchant.decorator';
import type { MerchantEntity } from '../auth/merchant.entity';
import { MerchantAuthGuard } from '../auth/merchant-auth.guard';
import { ApiErrors, TERMINAL_ROUTE_ERRORS } from '../openapi/api-errors.decorator';
import { TerminalSerialPipe } from '../terminals/terminal-serial.pipe';
import { TakesNoBody } from '../http/takes-no-body';
import { CardActionDto, cardAction } from './card-action.dto';
import { CreateTerminalDto } from './create-terminal.dto';
import { SandboxTerminals, type TerminalRecord } from './sandbox-terminals';
import { CardReplyDoc, TerminalRecordDoc } from './sandbox-terminals.doc';
import { UpdateTerminalDto } from './update-terminal.dto';

/** The path's terminal, one of the merchant's (NF-002 otherwise). */
const SerialParam = (): MethodDecorator =>
  ApiParam({
    name: 'serial',
    description: "one of the merchant's terminals (NF-002 otherwise)",
    // In the schema: @nestjs/swagger keeps a parameter's own example only without a schema.
    schema: { type: 'string', pattern: SERIAL_PATTERN.source, example: 'SIM0000002' },
  });

@ApiTags('sandbox')
@UseGuards(MerchantAuthGuard)
@Controller('sandbox/terminals')
export class SandboxTerminalsController {
  constructor(private readonly terminals: SandboxTerminals) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: "Add a simulated terminal to the merchant's fleet; it links up within a second",
    description:
      'The simulator starts hosting the terminal and the answer waits up to a second for its uplink, so `link` is normally "up". Serials are unique across merchants: a taken one is 409 TER-004. A hosted sandbox holds each account to a quota of terminals (409 TER-005), and a serial the account chooses must begin with its own prefix (12 hex digits of the SHA-256 of its merchant id, then `-`; 400 PAR-002 otherwise, whoever holds it).',
  })
  @ApiCreatedResponse({ type: TerminalRecordDoc, description: 'the new terminal' })
  @ApiErrors('PAR-002', 'TER-004', 'TER-005', 'TER-001', 'TER-002')
  create(
    @CurrentMerchant() merchant: MerchantEntity,
    @Body() body: CreateTerminalDto,
  ): Promise<TerminalRecord> {
    return this.terminals.create(merchant, body);
  }

  @Get()
  @ApiOperation({
    summary: "List the merchant's fleet with link state, pace and printer",
    description: "Every terminal of the caller's merchant, and no other merchant's.",
  })
  @ApiOkResponse({ type: [TerminalRecordDoc], description: 'the fleet' })
  list(@CurrentMerchant() merchant: MerchantEntity): Promise<TerminalRecord[]> {
    return this.terminals.list(merchant);
  }

  @Patch(':serial')
  @SerialParam()
  @ApiOperation({
    summary: "Change a simulated terminal's settings (pace, printer, cardholder)",
    description:
      'Pace: `instant` (tests), `fast` or `realistic`. Printer: `ok`, or `cover_open` / `paper_out` to fail the next jobs. Cardholder: `manual` records when and from which client address it was set, and lapses back to `auto` after CARDHOLDER_MANUAL_LAPSE_MS (10 minutes by default).',
  })
  @ApiOkResponse({ type: TerminalRecordDoc, description: 'the terminal as changed' })
  @ApiErrors('PAR-002', TERMINAL_ROUTE_ERRORS)
  update(
    @CurrentMerchant() merchant: MerchantEntity,
    @Param('serial', TerminalSerialPipe) serial: string,
    @Body() body: UpdateTerminalDto,
    @Ip() from: string | undefined,
  ): Promise<TerminalRecord> {
    return this.terminals.update(merchant, serial, body, from ?? 'unknown');
  }

  @Post(':serial/card')
  @SerialParam()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Act as the cardholder: present a card or cancel (409 TRX-006 when nothing waits)',
    description:
      "Acts on the terminal's open card wait (scenario 97, or the ordinary card read at a slower pace), over its local network, so it works while the terminal is offline.",
  })
  @ApiOkResponse({ type: CardReplyDoc, description: 'the transaction that took the action' })
  @ApiErrors('PAR-002', 'TRX-006', TERMINAL_ROUTE_ERRORS)
  card(
    @CurrentMerchant() merchant: MerchantEntity,
    @Param('serial', TerminalSerialPipe) serial: string,
    @Body() body: CardActionDto,
  ): Promise<CardReply> {
    return this.terminals.card(merchant, serial, cardAction(body));
  }

  @Post(':serial/offline')
  @TakesNoBody()
  @SerialParam()
  @HttpCode(200)
  @ApiOperation({
    summary: "Cut the terminal's link to the service; its events wait in its own store",
    description: 'Cloud-form requests for the terminal then get 503 TER-001; the Local form keeps working.',
  })
  @ApiOkResponse({ type: TerminalRecordDoc, description: 'the terminal, `link: "offline"`' })
  @ApiErrors(TERMINAL_ROUTE_ERRORS)
  offline(
    @CurrentMerchant() merchant: MerchantEntity,
    @Param('serial', TerminalSerialPipe) serial: string,
  ): Promise<TerminalRecord> {
    return this.terminals.setOffline(merchant, serial, true);
  }

  @Post(':serial/online')
  @TakesNoBody()
  @SerialParam()
  @HttpCode(200)
  @ApiOperation({
    summary: "Restore the terminal's link; its queued events replay in order",
    description: 'The answer waits up to a second for the uplink.',
  })
  @ApiOkResponse({ type: TerminalRecordDoc, description: 'the terminal' })
  @ApiErrors(TERMINAL_ROUTE_ERRORS)
  online(
    @CurrentMerchant() merchant: MerchantEntity,
    @Param('serial', TerminalSerialPipe) serial: string,
  ): Promise<TerminalRecord> {
    return this.terminals.setOffline(merchant, serial, false);
  }
}
