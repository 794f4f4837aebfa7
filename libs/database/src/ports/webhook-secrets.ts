/** A merchant's webhook-signing secrets (contract, "Webhook secret rotation"). */
export abstract class WebhookSecrets {
  /**
   * Stores `sealed` as the secret in force, the one it replaces signing beside it until `until`
   * (ISO 8601, real time), in one write: two rotations at once never lose the secret in force.
   * Resolves the end of the overlap, or null when there was no secret to keep.
   */
  abstract rotate(merchantId: string, sealed: string, until: string): Promise<string | null>;
}
