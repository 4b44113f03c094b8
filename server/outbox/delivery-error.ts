/**
 * Why a delivery failed, and whether trying again could help: a relay's 5xx or a collector's 4xx
 * is final for that message; a 4xx from a relay, a refused login, a timeout or a closed port is
 * worth another attempt later.
 */
export class DeliveryError extends Error {
  override name = "DeliveryError";
  constructor(
    message: string,
    readonly permanent: boolean,
    /**
     * The relay refused the recipient itself, for good (a 5xx to RCPT TO): the address takes no
     * mail, which the suppression list remembers (decision 041).
     */
    readonly recipientRefused = false,
    /** How long the receiver asked to be left alone (a webhook's Retry-After), at least. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}
