/** Input bounds of the service (the specification leaves them open; docs/contract.md records them). */
export const MAX_AMOUNT_FIELD_CENTAVOS = 99_999_999_99;
export const MAX_TOTAL_CENTAVOS = 99_999_999_99;
export const MAX_URL_LENGTH = 2048;
export const MAX_METADATA_KEYS = 20;
export const MAX_METADATA_KEY_LENGTH = 40;
export const MAX_METADATA_VALUE_LENGTH = 255;

/** A terminal serial: 1 to 32 letters, digits, `-` or `_` (contract §11). */
export const SERIAL_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * What `IsUUID()` takes, as a pattern the document can state: versions 1 to 8 with the RFC 9562
 * variant, and the nil and max UUIDs (a JSON Schema `uuid` format alone takes any hex digits).
 */
export const UUID_PATTERN =
  '^(?:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|[fF]{8}-[fF]{4}-[fF]{4}-[fF]{4}-[fF]{12})$';

/** Keys the body scan refuses in every object (PAR-001, contract §4): never a field or a metadata key. */
export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

/** A webhook URL's scheme, in any case; the rest is an RFC 3986 URI (PAR-004 otherwise). */
export const WEBHOOK_URL_PATTERN = '^[Hh][Tt][Tt][Pp][Ss]?://[^/?#]';

/** The characters of an RFC 3986 URI, a `%` only before two hex digits. */
export const URI_CHARACTERS = /^(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/;
