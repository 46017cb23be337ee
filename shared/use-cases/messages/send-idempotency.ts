/**
 * The Idempotency-Key of single sends (openwa-facts §1.2): the first request with a key claims it for the message it
 * is about to store, so a retry with the same body answers that message instead of sending another, and one with
 * another body is refused (422 IDEMPOTENCY_KEY_REUSED). Keys are per session and hold 24 hours.
 */
import { createHash } from 'node:crypto';
import type { Message } from '#shared/domain/message.js';
import { ConflictError, UnprocessableError } from '#shared/errors/app-error.js';
import type { CoreDeps } from '#shared/use-cases/core-deps.js';

/**
 * How long a claim may stand without its message row before a retry takes the claimant for dead (it crashed between
 * claim and insert, or failed and could not give the key up) and claims the key afresh. Only one store write lies
 * between the two, and a request lives at most 30 s (the Lambda timeout), so a live claimant is never overtaken.
 */
export const IDEMPOTENCY_TAKEOVER_MS = 60_000;

type KeyDeps = Pick<CoreDeps, 'data' | 'clock' | 'logger'>;

/** What a request asks to send; two requests with one key must agree on all of it. */
export interface SendIntent {
  chatId: string;
  content: unknown;
  metadata?: Record<string, unknown> | undefined;
}

/** Object keys sorted at every depth, so equal requests hash equally whatever order their fields came in. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) return inner;
    const entries = Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries);
  });
}

/** sha256 (hex) of the canonical JSON of what the request sends: chat, content and metadata. */
export function sendRequestHash({ chatId, content, metadata }: SendIntent): string {
  return createHash('sha256').update(canonicalJson({ chatId, content, metadata })).digest('hex');
}

/** The outcome of a key's claim: send `messageId` (giving the key up if that fails), or answer an earlier send. */
export type KeyClaim = { kind: 'claimed'; giveUp(): Promise<void> } | { kind: 'replay'; message: Message };

/**
 * Claims `key` of the session for `messageId`, the message this request is about to store. Answers the earlier
 * message when a request with the same body claimed it first and stored its row; refuses another body (422) and a
 * claimant still between claim and insert (409 IDEMPOTENCY_KEY_IN_PROGRESS, retryable).
 */
export async function claimSendKey(
  deps: KeyDeps,
  sessionId: string,
  key: string,
  intent: SendIntent,
  messageId: string,
): Promise<KeyClaim> {
  const keys = deps.data.sendIdempotency;
  const hash = sendRequestHash(intent);
  for (let attempt = 1; ; attempt++) {
    const now = deps.clock.now();
    const claim = await keys.claim({ sessionId, key, requestHash: hash, messageId }, now);
    if (claim.claimed) return { kind: 'claimed', giveUp: () => giveUpKey(deps, sessionId, key, messageId) };
    const { existing } = claim;
    if (existing.requestHash !== hash) {
      throw new UnprocessableError(
        'IDEMPOTENCY_KEY_REUSED',
        'This Idempotency-Key was already used with a different request body',
      );
    }
    const earlier = await deps.data.messages.findById(sessionId, existing.messageId);
    if (earlier) return { kind: 'replay', message: earlier };
    const age = now.getTime() - Date.parse(existing.createdAt);
    if (attempt > 1 || age < IDEMPOTENCY_TAKEOVER_MS) {
      throw new ConflictError(
        'IDEMPOTENCY_KEY_IN_PROGRESS',
        'A request with this Idempotency-Key is still in progress; retry shortly',
        { retryable: true },
      );
    }
    // The claimant never stored its message: its claim goes, and this request claims afresh (of several retries
    // doing so at once, the store lets one win; the others see its fresh claim and answer 409).
    await keys.release(sessionId, key, existing.messageId);
  }
}

/**
 * Gives up the key of a send that failed before it was queued (nothing went out), so a retry with it sends afresh
 * rather than waiting out the takeover. A failure here is logged: the send's own error is the one to answer.
 */
async function giveUpKey(deps: KeyDeps, sessionId: string, key: string, messageId: string): Promise<void> {
  try {
    await deps.data.sendIdempotency.release(sessionId, key, messageId);
  } catch (error) {
    deps.logger.warn({ err: error, sessionId }, 'idempotency key of a failed send could not be released');
  }
}
