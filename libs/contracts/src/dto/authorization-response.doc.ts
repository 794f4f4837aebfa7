import { ApiProperty } from '@nestjs/swagger';
import { ENTRY_MODES } from '../entry-modes';

class ServiceResponseDoc {
  @ApiProperty({ example: '000' }) code!: string;
  @ApiProperty({ example: 'approved' }) message!: string;
}

class MessageFieldsDoc {
  @ApiProperty({ description: 'ISO 8583 field 38, the authorization code', example: '123456' }) F38!: string;
  @ApiProperty({ description: 'ISO 8583 field 39, the response code', example: '00' }) F39!: string;
  @ApiProperty({ description: 'ISO 8583 field 55, EMV data (hex TLV)' }) F55!: string;
}

class RawResponseDoc {
  @ApiProperty({ type: 'integer', description: 'centavos; 0 when declined', example: 11600 })
  authorized_amount!: number;
  @ApiProperty({ example: 'CREDIT' }) card_type!: string;
  @ApiProperty({ example: 'OFFLINE_PIN' }) cvm_type!: string;
  @ApiProperty({ example: 'VISA' }) franchise!: string;
  @ApiProperty({ type: () => ServiceResponseDoc }) service_response!: ServiceResponseDoc;
  @ApiProperty({
    format: 'uuid',
    description: 'name it to capture, re-authorize, tip, void or refund this transaction',
  })
  transaction_reference!: string;
  @ApiProperty({ enum: ['APPROVED', 'DECLINED'] }) transaction_status!: string;
  @ApiProperty({ example: 'SALE' }) transaction_type!: string;
  @ApiProperty({ example: '00001234' }) ticket_number!: string;
  @ApiProperty({ description: 'ISO 8583 field 11, the trace number', example: '000123' }) F11!: string;
  @ApiProperty({ type: () => MessageFieldsDoc }) message_fields!: MessageFieldsDoc;
}

class CardDataDoc {
  @ApiProperty({ description: 'masked: last four digits only', example: '************4242' }) pan!: string;
  @ApiProperty({ example: 'JANE DOE' }) cardHolderName!: string;
  @ApiProperty({ example: 'CREDIT' }) cardType!: string;
  @ApiProperty({ enum: Object.values(ENTRY_MODES) }) entryMode!: string;
  @ApiProperty({ description: 'spelled so by the specification' }) showReciptSignature!: boolean;
  @ApiProperty({ example: 'OFFLINE_PIN' }) cvm!: string;
  @ApiProperty({ example: 'A0000000031010' }) aid!: string;
  @ApiProperty({ example: '424242' }) bin!: string;
  @ApiProperty() isOnlinePinMandatory!: boolean;
}

/** OpenAPI description of the Authorization response of every sync money operation. */
export class AuthorizationResponseDoc {
  @ApiProperty({ description: 'false for an acquirer decline (still a 200)' }) approved!: boolean;
  @ApiProperty({ description: 'ISO 8583 field 39', example: '00' }) responseCode!: string;
  @ApiProperty({ description: '"" when declined', example: '123456' }) authCode!: string;
  @ApiProperty() issuerAuthenticationData!: string;
  @ApiProperty() issuerScript1!: string;
  @ApiProperty() issuerScript2!: string;
  @ApiProperty({ example: 'approved' }) message!: string;
  @ApiProperty({ type: () => RawResponseDoc }) rawResponse!: RawResponseDoc;
  @ApiProperty({ type: () => CardDataDoc }) cardData!: CardDataDoc;
  @ApiProperty({ type: 'integer', description: 'Unix epoch milliseconds', example: 1795334400123 })
  timestamp!: number;
}
