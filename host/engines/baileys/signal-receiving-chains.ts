/**
 * Bounds the receiving chains of a stored Signal session. libsignal's JavaScript port (what Baileys uses) keeps
 * every receiving chain a session ever had: each message a contact sends after one of ours steps the ratchet and
 * adds one, so the record of a session that goes back and forth grows without end, and every encrypt and decrypt
 * for that contact deserialises, re-serialises and stores all of it. Twenty clients sending for two minutes, five of
 * them answered by their contact after each send, left records of about a thousand chains, and reading and writing
 * them became the send path's largest growing cost. libsignal's reference implementation keeps the newest five
 * receiver chains (MAX_RECEIVER_CHAINS); so does this. A message still in flight on an older chain then fails to
 * decrypt, as it would with the reference implementation, and WhatsApp's retry receipt has it sent again.
 */

/** Receiving chains kept per session entry, newest first (libsignal's MAX_RECEIVER_CHAINS). */
export const MAX_RECEIVING_CHAINS = 5;

/** libsignal's ChainType.RECEIVING. */
const RECEIVING = 2;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Drops the oldest receiving chains beyond MAX_RECEIVING_CHAINS from each session entry of a serialised
 * SessionRecord (`{ _sessions: { [baseKey]: { currentRatchet, _chains } }, version }`), in place. Chains are kept in
 * the order libsignal added them, oldest first; the one the ratchet currently receives on is never dropped.
 * Anything not shaped like a session record is left alone.
 */
export function boundReceivingChains(record: unknown): void {
  if (!isObject(record) || !isObject(record._sessions)) return;
  for (const entry of Object.values(record._sessions)) {
    if (!isObject(entry) || !isObject(entry._chains)) continue;
    const chains = entry._chains;
    const current = isObject(entry.currentRatchet) ? entry.currentRatchet.lastRemoteEphemeralKey : undefined;
    const receiving = Object.keys(chains).filter((key) => {
      const chain = chains[key];
      return isObject(chain) && chain.chainType === RECEIVING;
    });
    let excess = receiving.length - MAX_RECEIVING_CHAINS;
    for (const key of receiving) {
      if (excess <= 0) break;
      if (key === current) continue;
      delete chains[key];
      excess -= 1;
    }
  }
}
