import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { plainToInstance, Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { PRINT_JOB_STATUSES, PRINTER_ERROR_CODES } from '@tps/domain';
import {
  PRINT_ALIGNMENTS,
  PRINT_COMMAND_TYPES,
  PRINT_LIMITS,
  type PrintAlignment,
  type PrintCommand,
} from './print-job';
import { IsWebhookUrl, WEBHOOK_URL_SCHEMA } from './validators';
import { ApiSchemaRules } from './schema-rules';
import { UnknownFieldHints } from './unknown-field-hints';

/** A command whose `type` is none of the known ones: only `type` is checked, and refused. */
export class PrintCommandDto {
  @ApiProperty({ enum: PRINT_COMMAND_TYPES })
  @IsIn(PRINT_COMMAND_TYPES)
  type!: string;
}

export class TextCommandDto {
  @ApiProperty({ enum: ['text'] }) @IsIn(['text']) type!: 'text';

  @ApiProperty({ maxLength: PRINT_LIMITS.maxTextLength, description: 'wrapped at 32 columns' })
  @IsString()
  @MaxLength(PRINT_LIMITS.maxTextLength)
  value!: string;

  @ApiPropertyOptional({ enum: PRINT_ALIGNMENTS, description: 'left when omitted' })
  @IsOptional()
  @IsIn(PRINT_ALIGNMENTS)
  align?: PrintAlignment;

  @ApiPropertyOptional() @IsOptional() @IsBoolean() bold?: boolean;
}

export class QrCommandDto {
  @ApiProperty({ enum: ['qr'] }) @IsIn(['qr']) type!: 'qr';

  @ApiProperty({ minLength: 1, maxLength: PRINT_LIMITS.maxCodeLength })
  @IsString()
  @Length(1, PRINT_LIMITS.maxCodeLength)
  value!: string;
}

/** What a Code 128 barcode can carry here. */
const BARCODE_VALUE = /^[\x20-\x7E]{1,80}$/;

export class BarcodeCommandDto {
  @ApiProperty({ enum: ['barcode'] }) @IsIn(['barcode']) type!: 'barcode';

  @ApiProperty({
    minLength: 1,
    maxLength: 80,
    pattern: BARCODE_VALUE.source,
    description: 'printable ASCII (Code 128)',
  })
  @IsString()
  @Matches(BARCODE_VALUE, { message: 'value must be 1 to 80 printable ASCII characters' })
  value!: string;
}

export class FeedCommandDto {
  @ApiProperty({ enum: ['feed'] }) @IsIn(['feed']) type!: 'feed';

  @ApiProperty({ type: 'integer', minimum: 1, maximum: PRINT_LIMITS.maxFeedLines })
  @IsInt()
  @Min(1)
  @Max(PRINT_LIMITS.maxFeedLines)
  lines!: number;
}

export class CutCommandDto {
  @ApiProperty({ enum: ['cut'] }) @IsIn(['cut']) type!: 'cut';
}

const COMMAND_CLASSES = {
  text: TextCommandDto,
  qr: QrCommandDto,
  barcode: BarcodeCommandDto,
  feed: FeedCommandDto,
  cut: CutCommandDto,
} as const;

/**
 * Picks each command's class by its `type`, so that each is validated (and unknown fields are
 * refused) by its own shape. Done by hand rather than with class-transformer's discriminator,
 * which throws on a `null` item (a 500 for bad input); non-objects are left for
 * `ValidateNested` to refuse.
 */
function toCommandInstances(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((item: unknown) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return item;
    const type = (item as { type?: unknown }).type;
    if (typeof type === 'string' && Object.prototype.hasOwnProperty.call(COMMAND_CLASSES, type)) {
      return plainToInstance<object, object>(COMMAND_CLASSES[type as keyof typeof COMMAND_CLASSES], item);
    }
    // Only the type is wrong: say so, rather than call its other fields unknown.
    return plainToInstance(PrintCommandDto, { type });
  });
}

@ApiExtraModels(TextCommandDto, QrCommandDto, BarcodeCommandDto, FeedCommandDto, CutCommandDto)
// Contract §12: the commands to print, or the transaction whose receipt to print; never both.
@ApiSchemaRules({ oneOf: [{ required: ['commands'] }, { required: ['transaction_reference'] }] })
@UnknownFieldHints({
  events_webhook_url:
    'events_webhook_url belongs to payment operations; a print job takes its callback as webhookUrl',
})
export class CreatePrintJobDto {
  @ApiPropertyOptional({
    description: 'printed in order; required unless transaction_reference is given, and refused with it',
    type: 'array',
    minItems: PRINT_LIMITS.minCommands,
    maxItems: PRINT_LIMITS.maxCommands,
    items: { oneOf: Object.values(COMMAND_CLASSES).map((model) => ({ $ref: getSchemaPath(model) })) },
  })
  @ValidateIf((body: CreatePrintJobDto) => body.transaction_reference === undefined)
  @IsDefined({ message: 'commands (or a transaction_reference) is required' })
  @Transform(({ value }) => toCommandInstances(value))
  @IsArray()
  @ArrayMinSize(PRINT_LIMITS.minCommands)
  @ArrayMaxSize(PRINT_LIMITS.maxCommands)
  @ValidateNested({ each: true })
  commands?: PrintCommand[];

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'print the standard receipt of this approved transaction instead of commands',
  })
  @IsOptional()
  @IsUUID()
  transaction_reference?: string;

  @ApiPropertyOptional({
    ...WEBHOOK_URL_SCHEMA,
    description:
      'print webhook, one POST on COMPLETED or FAILED, no retry (not `events_webhook_url`, which belongs to payment operations)',
  })
  @IsOptional()
  @IsWebhookUrl()
  webhookUrl?: string;

  @ApiPropertyOptional({
    maxLength: PRINT_LIMITS.maxExternalReferenceLength,
    description: 'echoed in the webhook',
  })
  @IsOptional()
  @IsString()
  @MaxLength(PRINT_LIMITS.maxExternalReferenceLength)
  externalReference?: string;
}

class PrintCallbackListenerDoc {
  @ApiProperty({ type: 'integer', nullable: true, example: 200 }) statusCode!: number | null;
  @ApiProperty({ type: 'string', nullable: true, example: null }) error!: string | null;
  @ApiProperty({ type: 'integer', minimum: 0 }) latencyMs!: number;
}

class PrintCallbackDoc {
  @ApiProperty({ format: 'date-time', example: '2026-11-22T08:00:00.123Z' }) attemptedAt!: string;
  @ApiProperty({ type: 'integer', nullable: true, example: 200 }) statusCode!: number | null;
  @ApiProperty({ type: 'string', nullable: true, example: null }) error!: string | null;
  @ApiProperty({ type: 'integer', minimum: 0 }) latencyMs!: number;
  @ApiPropertyOptional({
    type: () => [PrintCallbackListenerDoc],
    description:
      "each `listen` connection's answer to its copy, in the order they came; absent when none was open (contract §6.1)",
  })
  listeners?: PrintCallbackListenerDoc[];
}

/** OpenAPI description of the print job record. */
export class PrintJobDoc {
  @ApiProperty({ format: 'uuid' }) printJobId!: string;
  @ApiProperty({ enum: PRINT_JOB_STATUSES }) status!: string;
  @ApiProperty({ description: 'as given; "" when none' }) externalReference!: string;
  @ApiProperty({ example: 'SIM0000001' }) terminalSerial!: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-22T08:00:00.123Z' }) createdAt!: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-22T08:00:00.456Z' }) updatedAt!: string;
  @ApiPropertyOptional({ enum: PRINTER_ERROR_CODES }) errorCode?: string;
  @ApiPropertyOptional({ example: 'the printer cover is open' }) errorMessage?: string;
  @ApiPropertyOptional({ description: 'the receipt as printed, 32 columns a line (once COMPLETED)' })
  printedText?: string;
  @ApiPropertyOptional({ type: () => PrintCallbackDoc, description: "the print webhook's one attempt" })
  callback?: PrintCallbackDoc;
}

/** OpenAPI description of the print webhook payload, exactly as the specification gives it. */
export class PrintWebhookPayloadDoc {
  @ApiProperty({ format: 'uuid' }) printJobId!: string;
  @ApiProperty({ enum: ['COMPLETED', 'FAILED'] }) status!: string;
  @ApiProperty({ description: 'as given when the job was created; "" when none', example: 'order-1' })
  externalReference!: string;
  @ApiPropertyOptional({ enum: PRINTER_ERROR_CODES, description: 'FAILED only' }) errorCode?: string;
  @ApiPropertyOptional({ example: 'the printer cover is open', description: 'FAILED only' })
  errorMessage?: string;
}
