import { randomInt, randomUUID } from 'node:crypto';
import { totalCentavos, type ReadingType } from '@tps/domain';
import type { AuthorizationResponse } from '@tps/contracts';
import type { OperationOrder } from '@tps/link';
import { cardOfOriginal, maskPan, type TestCard } from './test-cards';

export interface AcquirerRequest {
  order: OperationOrder;
  card: TestCard;
  readingType: ReadingType;
  /** ISO 8583 field 39: "00" approves; anything else declines with that code. */
  responseCode: string;
  at: Date;
}

const DECLINE_MESSAGES: Record<string, string> = {
  '05': 'do not honor',
  '51': 'insufficient funds',
  '54': 'expired card',
  '55': 'incorrect PIN',
  '61': 'exceeds withdrawal amount limit',
};

export function declineMessage(code: string): string {
  return DECLINE_MESSAGES[code] ?? 'declined by the issuer';
}

const ENTRY_MODES: Record<ReadingType, string> = {
  CHIP: 'CHIP',
  CONTACTLESS: 'CONTACTLESS',
  MAGNETIC_STRIPE: 'SWIPE',
};

function hex(bytes: number): string {
  return Array.from({ length: bytes }, () => randomInt(256).toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase();
}

function tlv(tag: string, value: string): string {
  return `${tag}${(value.length / 2).toString(16).padStart(2, '0').toUpperCase()}${value}`;
}

function digits(count: number): string {
  return Array.from({ length: count }, () => randomInt(10)).join('');
}

function authCode(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';
  return Array.from({ length: 6 }, () => alphabet[randomInt(alphabet.length)]).join('');
}

const TRANSACTION_TYPES: Record<OperationOrder['type'], string> = {
  charge: 'SALE',
  authorization: 'PRE_AUTHORIZATION',
  capture: 'CAPTURE',
  re_authorization: 'RE_AUTHORIZATION',
  pos_tip: 'TIP_ADJUSTMENT',
  void: 'VOID',
  refund: 'REFUND',
  abort: 'ABORT',
};

/** The simulated acquirer's answer, shaped as the specification's Authorization response. */
export function authorize(request: AcquirerRequest): AuthorizationResponse {
  const { order, readingType, responseCode, at } = request;
  // A follow-up (capture, void, …) acts on the card of the transaction it names.
  const card = order.original === undefined ? request.card : cardOfOriginal(order.original);
  const approved = responseCode === '00';
  const code = approved ? authCode() : '';
  const issuerAuthenticationData = hex(10);
  const issuerScript1 = approved ? hex(8) : '';
  const issuerScript2 = approved ? hex(8) : '';
  const f55 = [
    tlv('91', issuerAuthenticationData),
    ...(issuerScript1 ? [tlv('71', issuerScript1)] : []),
    ...(issuerScript2 ? [tlv('72', issuerScript2)] : []),
  ].join('');
  const cvm = readingType === 'CHIP' ? (card.cardType === 'DEBIT' ? 'ONLINE_PIN' : 'OFFLINE_PIN') : 'NO_CVM';
  const message = approved ? 'approved' : declineMessage(responseCode);
  return {
    approved,
    responseCode,
    authCode: code,
    issuerAuthenticationData,
    issuerScript1,
    issuerScript2,
    message,
    rawResponse: {
      authorized_amount: approved ? totalCentavos(order.amount) + (order.tip ?? 0) : 0,
      card_type: card.cardType,
      cvm_type: cvm,
      franchise: card.franchise,
      service_response: { code: approved ? '000' : '051', message },
      transaction_reference: randomUUID(),
      transaction_status: approved ? 'APPROVED' : 'DECLINED',
      transaction_type: TRANSACTION_TYPES[order.type],
      ticket_number: digits(8),
      F11: digits(6),
      message_fields: { F38: code, F39: responseCode, F55: f55 },
    },
    cardData: {
      pan: maskPan(card.pan),
      cardHolderName: card.cardHolderName,
      cardType: card.cardType,
      entryMode: ENTRY_MODES[readingType],
      showReciptSignature: cvm === 'NO_CVM' && readingType === 'MAGNETIC_STRIPE',
      cvm,
      aid: card.aid,
      bin: card.pan.slice(0, 6),
      isOnlinePinMandatory: card.cardType === 'DEBIT',
    },
    timestamp: at.getTime(),
  };
}
