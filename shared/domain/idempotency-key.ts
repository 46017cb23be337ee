/** The `Idempotency-Key` request header of single sends (openwa-facts §1.2). */
import { z } from 'zod';

/** 1–255 visible ASCII characters (0x21–0x7E): no spaces, no controls, nothing a proxy could re-encode. */
export const IdempotencyKey = z
  .string()
  .regex(/^[\x21-\x7E]{1,255}$/, 'must be 1-255 visible ASCII characters')
  .meta({
    description:
      'Makes the send idempotent for 24 hours in this session: a retry with the same key and body answers the ' +
      'first message (with `Idempotent-Replayed: true`) instead of sending another; the same key with another ' +
      'body is 422 IDEMPOTENCY_KEY_REUSED.',
  });
