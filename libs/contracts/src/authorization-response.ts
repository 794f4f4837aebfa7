export interface ServiceResponse {
  code: string;
  message: string;
}

export interface MessageFields {
  F38: string;
  F39: string;
  F55: string;
}

export interface RawResponse {
  authorized_amount: number;
  card_type: string;
  cvm_type: string;
  franchise: string;
  service_response: ServiceResponse;
  transaction_reference: string;
  transaction_status: string;
  transaction_type: string;
  ticket_number: string;
  F11: string;
  message_fields: MessageFields;
}

export interface CardData {
  pan: string;
  cardHolderName: string;
  cardType: string;
  entryMode: string;
  /** Spelled exactly so by the specification. */
  showReciptSignature: boolean;
  cvm: string;
  aid: string;
  bin: string;
  isOnlinePinMandatory: boolean;
}

/** The answer of `POST /authorization` and of every sync money operation. */
export interface AuthorizationResponse {
  approved: boolean;
  responseCode: string;
  authCode: string;
  issuerAuthenticationData: string;
  issuerScript1: string;
  issuerScript2: string;
  message: string;
  rawResponse: RawResponse;
  cardData: CardData;
  /** Unix epoch milliseconds (contract §3). */
  timestamp: number;
}
