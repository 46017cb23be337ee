/**
 * Signing of a webhook delivery: the exact bytes sent are signed twice. `X-Service-Signature: sha256=<hex>` is the
 * HMAC-SHA256 of the body; the Standard Webhooks trio (`webhook-id`, `webhook-timestamp`, `webhook-signature:
 * v1,<base64>` over `<id>.<timestamp>.<body>`) lets receivers verify with the `standardwebhooks` package. A secret
 * that starts with `whsec_` is base64 key material (what that package generates and expects); any other secret is
 * used as its UTF-8 bytes (receivers pass those bytes with `{ format: 'raw' }`).
 */
import { createHmac } from 'node:crypto';

const WHSEC = 'whsec_';

/** The HMAC key a webhook secret stands for. */
export function signingKey(secret: string): Buffer {
  return secret.startsWith(WHSEC)
    ? Buffer.from(secret.slice(WHSEC.length), 'base64')
    : Buffer.from(secret, 'utf8');
}

export interface SignatureInput {
  /** The serialized body, exactly as it is sent. */
  body: string;
  secret: string;
  /** `webhook-id`: the event's idempotency key, the same on every retry. */
  id: string;
  /** `webhook-timestamp`, epoch seconds of this attempt. */
  timestampSeconds: number;
}

/** The signature headers of one delivery attempt. */
export function signatureHeaders(input: SignatureInput): Record<string, string> {
  const key = signingKey(input.secret);
  const hex = createHmac('sha256', key).update(input.body).digest('hex');
  const standard = createHmac('sha256', key)
    .update(`${input.id}.${input.timestampSeconds}.${input.body}`)
    .digest('base64');
  return {
    'X-Service-Signature': `sha256=${hex}`,
    'webhook-id': input.id,
    'webhook-timestamp': String(input.timestampSeconds),
    'webhook-signature': `v1,${standard}`,
  };
}
