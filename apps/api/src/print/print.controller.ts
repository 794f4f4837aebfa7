import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CreatePrintJobDto, PrintJobDoc, type PrintJobRecord } from '@tps/contracts/dto';
import { CurrentMerchant } from '../auth/current-merchant.decorator';
import type { MerchantEntity } from '../auth/merchant.entity';
import { MerchantAuthGuard } from '../auth/merchant-auth.guard';
import { TerminalSerialPipe } from '../terminals/terminal-serial.pipe';
import { ApiErrors, TERMINAL_ROUTE_ERRORS } from '../openapi/api-errors.decorator';
import { PrintService } from './print-service';

const CREATE =
  'Queues a print job on the terminal: `commands` printed in order, or the standard receipt of an approved transaction named by `transaction_reference`. The printer takes jobs one at a time (PENDING → IN_PROGRESS → COMPLETED, or FAILED with `errorCode`); `webhookUrl` gets one POST when the job ends.';
const CREATE_ERRORS = ['PAR-002', 'PAR-004', 'NF-001', ...TERMINAL_ROUTE_ERRORS] as const;
const READ =
  'The last state the service heard of a job sent through the same form, with the receipt as printed (`printedText`) and the outcome of its webhook (`callback`).';

@ApiTags('print')
@UseGuards(MerchantAuthGuard)
@Controller('terminal/v1')
export class PrintController {
  constructor(private readonly print: PrintService) {}

  @Post('print')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Create a print job, Local Network form (the terminal bound to the credentials)',
    description: CREATE,
  })
  @ApiAcceptedResponse({ type: PrintJobDoc, description: 'the job record' })
  @ApiErrors(CREATE_ERRORS)
  createLocal(
    @CurrentMerchant() merchant: MerchantEntity,
    @Body() body: CreatePrintJobDto,
  ): Promise<PrintJobRecord> {
    return this.print.create(merchant, 'local', undefined, body);
  }

  @Post(':terminalSerial/print')
  @HttpCode(202)
  @ApiOperation({ summary: 'Create a print job, Cloud form', description: CREATE })
  @ApiParam({ name: 'terminalSerial', example: 'SIM0000002' })
  @ApiAcceptedResponse({ type: PrintJobDoc, description: 'the job record' })
  @ApiErrors(CREATE_ERRORS)
  createCloud(
    @CurrentMerchant() merchant: MerchantEntity,
    @Param('terminalSerial', TerminalSerialPipe) serial: string,
    @Body() body: CreatePrintJobDto,
  ): Promise<PrintJobRecord> {
    return this.print.create(merchant, 'cloud', serial, body);
  }

  @Get('print/:printJobId')
  @ApiOperation({ summary: 'A print job, Local Network form', description: READ })
  @ApiOkResponse({ type: PrintJobDoc, description: 'the job record' })
  @ApiErrors('NF-002', 'NF-003')
  getLocal(
    @CurrentMerchant() merchant: MerchantEntity,
    @Param('printJobId') printJobId: string,
  ): Promise<PrintJobRecord> {
    return this.print.get(merchant, undefined, printJobId);
  }

  @Get(':terminalSerial/print/:printJobId')
  @ApiOperation({ summary: 'A print job, Cloud form', description: READ })
  @ApiParam({ name: 'terminalSerial', example: 'SIM0000002' })
  @ApiOkResponse({ type: PrintJobDoc, description: 'the job record' })
  @ApiErrors('NF-002', 'NF-003')
  getCloud(
    @CurrentMerchant() merchant: MerchantEntity,
    @Param('terminalSerial', TerminalSerialPipe) serial: string,
    @Param('printJobId') printJobId: string,
  ): Promise<PrintJobRecord> {
    return this.print.get(merchant, serial, printJobId);
  }
}
