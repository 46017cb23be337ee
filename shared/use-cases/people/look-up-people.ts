import { isPersonId, type PersonLookup, personLookup } from '#shared/domain/person-ids.js';
import type { IdentityStore } from '#shared/ports/identity-store.port.js';

/**
 * Reads the aliases of every distinct person among `ids` (groups, broadcasts and nulls skipped) and answers a
 * lookup of both ids of each: what events and message answers carry (shared/domain/person-ids.ts).
 */
export async function lookUpPeople(
  identities: Pick<IdentityStore, 'aliasesOf'>,
  sessionId: string,
  ids: Iterable<string | null | undefined>,
): Promise<PersonLookup> {
  const people = [...new Set([...ids].filter((id): id is string => !!id && isPersonId(id)))];
  const aliases = await Promise.all(people.map((id) => identities.aliasesOf(sessionId, id)));
  return personLookup(new Map(people.map((id, i) => [id, aliases[i] ?? []])));
}
