import { Body, Controller, Get, HttpCode, Param, Post, Req, UseGuards } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CreatePrintJobDto, PrintJobDoc, type PrintJobRecord } from '@tps/contracts/dto';
import { requestTraceparent } from '@tps/observability';
import type { Request } from 'express';
import { CurrentMerchant } from '../auth/current-merchant.decorator';
import type { MerchantEntity } from '../auth/merchant.entity';
import { MerchantAuthGuard } from '../auth/merchant-auth.guard';
import { Terminal, bothForms, type TerminalTarget } from '../terminals/terminal-target.decorator';
import { ApiErrors, TERMINAL_ROUTE_ERRORS } from '../openapi/api-errors.decorator';
import { PrintService } from './print-service';

const CREATE =
  "Queues a print job on the terminal: `commands` printed in order, or the standard receipt of an approved transaction named by `transaction_reference`. The printer takes jobs one at a time (PENDING → IN_PROGRESS → COMPLETED, or FAILED with `errorCode`); `webhookUrl` gets one POST when the job ends. 503 (TER-001, INT-002): the job was not taken, create it again. 504 TER-002: the job was sent and the terminal's answer lost; the job is kept, the message names its `printJobId` and `Location` is its status route: follow it there, do not create it again (it could print twice).";
const CREATE_ERRORS = ['PAR-002', 'PAR-004', 'NF-001', ...TERMINAL_ROUTE_ERRORS] as const;
const READ =
  'The last state the service heard of a job sent through the same form, with the receipt as printed (`printedText`) and the outcome of its webhook (`callback`). A job still PENDING once the hand-off timeout (10 s) has passed since `createdAt` is first handed to the terminal again, which takes a job once by its id: the answer is where the terminal is with it, or PENDING as last heard while the terminal cannot be reached.';

@ApiTags('print')
@UseGuards(MerchantAuthGuard)
@Controller('terminal/v1')
export class PrintController {
  constructor(private readonly print: PrintService) {}

  @Post(bothForms('print'))
  @HttpCode(202)
  @ApiOperation({ summary: 'Create a print job', description: CREATE })
  @ApiAcceptedResponse({ type: PrintJobDoc, description: 'the job record' })
  @ApiErrors(CREATE_ERRORS)
  create(
    @CurrentMerchant() merchant: MerchantEntity,
    @Terminal() target: TerminalTarget,
    @Body() body: CreatePrintJobDto,
    @Req() request: Request,
  ): Promise<PrintJobRecord> {
    return this.print.create(merchant, target.form, target.serial, body, requestTraceparent(request));
  }

  @Get(bothForms('print/:printJobId'))
  @ApiOperation({ summary: 'A print job', description: READ })
  @ApiOkResponse({ type: PrintJobDoc, description: 'the job record' })
  @ApiErrors('NF-002', 'NF-003')
  read(
    @CurrentMerchant() merchant: MerchantEntity,
    @Terminal() target: TerminalTarget,
    @Param('printJobId') printJobId: string,
    @Req() request: Request,
  ): Promise<PrintJobRecord> {
    return this.print.get(merchant, target.form, target.serial, printJobId, requestTraceparent(request));
  }
}
