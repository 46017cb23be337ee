/**
 * Both identities of a person (beyond the spec): WhatsApp addresses many users by a LID (`<id>@lid`) instead of
 * their phone number (`<number>@c.us`), and a message or a call may carry either. Stored messages, their events and
 * call events carry a person as both, filled from the pairings the engines report (IdentityStore), so a receiver
 * never has to call back to learn who wrote; a pairing learnt later shows in what is read afterwards.
 */
import { z } from 'zod';

export const PersonIds = z
  .object({
    /** `<number>@c.us`; null while the person's number is unknown. */
    phone: z.string().nullable(),
    /** `<id>@lid`; null while no LID is known for the number. */
    lid: z.string().nullable(),
  })
  .meta({
    id: 'PersonIds',
    description:
      'A person by phone number and by LID, each known when the person was addressed by it or the engine learnt ' +
      'the pairing; null for an id that names no person (a group, the status broadcast).',
  });
export type PersonIds = z.infer<typeof PersonIds>;

/** A person as the API names one: by phone number (`<number>@c.us`) or by LID (`<id>@lid`). */
export const PersonId = z
  .string()
  .max(64)
  .regex(/^[0-9]{5,20}@(c\.us|lid)$/, 'must be <number>@c.us or <id>@lid');

/**
 * The field as events carry it: an event written before the field existed (in the outbox or a queue across an
 * upgrade) reads back with null, never as an event that no longer parses.
 */
export const EventPersonIds = PersonIds.nullable().default(null);

/** Answers both ids of the person an id names, from what has been looked up; null for an id naming no person. */
export type PersonLookup = (id: string | null | undefined) => PersonIds | null;

const isPhone = (id: string) => id.endsWith('@c.us');
const isLid = (id: string) => id.endsWith('@lid');
/** Whether an id names a person (by phone number or LID), not a group or a broadcast. */
export const isPersonId = (id: string): boolean => isPhone(id) || isLid(id);

/** Both ids of `id`, its other forms being `aliases` (IdentityStore.aliasesOf). */
export function personIds(id: string, aliases: readonly string[]): PersonIds | null {
  if (isPhone(id)) return { phone: id, lid: aliases.find(isLid) ?? null };
  if (isLid(id)) return { phone: aliases.find(isPhone) ?? null, lid: id };
  return null;
}

/**
 * A lookup over the aliases of each id already read; an id among those aliases is answered too (a stored chat id
 * may be the other form of the one looked up), and an id not read answers what it shows alone.
 */
export function personLookup(aliases: ReadonlyMap<string, readonly string[]>): PersonLookup {
  const known = new Map(aliases);
  for (const [id, others] of aliases) {
    for (const other of others) {
      if (!known.has(other)) known.set(other, [id, ...others.filter((alias) => alias !== other)]);
    }
  }
  return (id) => (id ? personIds(id, known.get(id) ?? []) : null);
}
