/** Input bounds of the service (the specification leaves them open; docs/contract.md records them). */
export const MAX_AMOUNT_FIELD_CENTAVOS = 99_999_999_99;
export const MAX_TOTAL_CENTAVOS = 99_999_999_99;
export const MAX_URL_LENGTH = 2048;
export const MAX_METADATA_KEYS = 20;
export const MAX_METADATA_KEY_LENGTH = 40;
export const MAX_METADATA_VALUE_LENGTH = 255;
