/**
 * The contacts a session knows, whatever the engine: the account's address book (names it saved) and the people it
 * met (the names they give themselves), each person by phone number, by LID, or both once a pairing is known.
 * Engines feed it what their network tells (`learn`); the contacts.list and contacts.get operations read it.
 */
import { z } from 'zod';
import type { EngineOperationResult } from '#shared/domain/engine-operations/engine-operations.js';

/** One person: `phone` is digits, `lid` is `<id>@lid`; at least one of them is known. */
export const KnownContact = z.object({
  phone: z.string().nullable(),
  lid: z.string().nullable(),
  /** The name the account saved the person under (its address book). */
  name: z.string().nullable(),
  /** The name the person gave themselves (WhatsApp's push name). */
  pushName: z.string().nullable(),
  /** In the account's address book. */
  saved: z.boolean(),
});
export type KnownContact = z.infer<typeof KnownContact>;

/** What a network report says of one person; absent fields say nothing. */
export interface ContactFacts {
  phone?: string | undefined;
  lid?: string | undefined;
  name?: string | undefined;
  pushName?: string | undefined;
  saved?: boolean | undefined;
}

export type ContactAnswer = EngineOperationResult<'contacts.get'>;

const PHONE_ID = /^([0-9]{5,20})@c\.us$/;

export class ContactBook {
  private readonly byPhone = new Map<string, KnownContact>();
  private readonly byLid = new Map<string, KnownContact>();

  /**
   * Takes in what the network said of a person; answers whether the book changed. Facts naming a phone and a LID
   * that the book holds as two people join them into one (the LID's record fills what the phone's lacks).
   */
  learn(facts: ContactFacts): boolean {
    const byPhone = facts.phone === undefined ? undefined : this.byPhone.get(facts.phone);
    const byLid = facts.lid === undefined ? undefined : this.byLid.get(facts.lid);
    let person = byPhone ?? byLid;
    let changed = false;
    if (!person) {
      if (facts.phone === undefined && facts.lid === undefined) return false;
      person = { phone: null, lid: null, name: null, pushName: null, saved: false };
      changed = true;
    } else if (byPhone && byLid && byPhone !== byLid) {
      this.forget(byLid);
      person.lid ??= byLid.lid;
      person.name ??= byLid.name;
      person.pushName ??= byLid.pushName;
      person.saved ||= byLid.saved;
      changed = true;
    }
    changed = this.apply(person, facts) || changed;
    this.index(person);
    return changed;
  }

  /** What the network tells about a pairing alone, for people the book already holds (it adds nobody). */
  link(phone: string, lid: string): boolean {
    if (!this.byPhone.has(phone) && !this.byLid.has(lid)) return false;
    return this.learn({ phone, lid });
  }

  /** The person a contact id (`<number>@c.us` or `<id>@lid`) names. */
  find(contactId: string): KnownContact | undefined {
    const phone = PHONE_ID.exec(contactId)?.[1];
    return phone === undefined ? this.byLid.get(contactId) : this.byPhone.get(phone);
  }

  /** Everyone, ordered by the id the API names them by (a stable order for pages). */
  list(): KnownContact[] {
    // Code-unit order: the ids are ASCII, and localeCompare would load ICU's collator (see sqlite-database.ts).
    return [...this.people()]
      .map((person) => ({ person, id: idOf(person) }))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map(({ person }) => person);
  }

  /** Takes a snapshot back in (people already known are joined as `learn` joins them). */
  restore(people: readonly KnownContact[]): void {
    for (const person of people) {
      this.learn({
        phone: person.phone ?? undefined,
        lid: person.lid ?? undefined,
        name: person.name ?? undefined,
        pushName: person.pushName ?? undefined,
        saved: person.saved,
      });
    }
  }

  private *people(): Iterable<KnownContact> {
    const seen = new Set<KnownContact>();
    for (const person of [...this.byPhone.values(), ...this.byLid.values()]) {
      if (seen.has(person)) continue;
      seen.add(person);
      yield person;
    }
  }

  private apply(person: KnownContact, facts: ContactFacts): boolean {
    let changed = false;
    const set = <K extends 'phone' | 'lid' | 'name' | 'pushName'>(key: K, value: string | undefined) => {
      if (value === undefined || value === '' || person[key] === value) return;
      if (key === 'phone' && person.phone !== null) this.byPhone.delete(person.phone);
      if (key === 'lid' && person.lid !== null) this.byLid.delete(person.lid);
      person[key] = value;
      changed = true;
    };
    set('phone', facts.phone);
    set('lid', facts.lid);
    set('name', facts.name);
    set('pushName', facts.pushName);
    if (facts.saved === true && !person.saved) {
      person.saved = true;
      changed = true;
    }
    return changed;
  }

  private index(person: KnownContact): void {
    if (person.phone !== null) this.byPhone.set(person.phone, person);
    if (person.lid !== null) this.byLid.set(person.lid, person);
  }

  private forget(person: KnownContact): void {
    if (person.phone !== null && this.byPhone.get(person.phone) === person) this.byPhone.delete(person.phone);
    if (person.lid !== null && this.byLid.get(person.lid) === person) this.byLid.delete(person.lid);
  }
}

/** The id the API names a person by: the phone number's when known, else the LID. */
export function idOf(person: KnownContact): string {
  return person.phone === null ? (person.lid ?? '') : `${person.phone}@c.us`;
}

/** A person as the contacts routes answer (`isBlocked` from the engine's blocklist, in the same id forms). */
export function contactAnswer(
  person: KnownContact,
  blocked: ReadonlySet<string>,
  picture?: string | null,
): ContactAnswer {
  const id = idOf(person);
  return {
    id,
    number: person.phone,
    lid: person.lid,
    ...(person.name === null ? {} : { name: person.name }),
    ...(person.pushName === null ? {} : { pushName: person.pushName }),
    isMyContact: person.saved,
    isBlocked: blocked.has(id) || (person.lid !== null && blocked.has(person.lid)),
    ...(picture === undefined ? {} : { profilePicUrl: picture }),
  };
}
