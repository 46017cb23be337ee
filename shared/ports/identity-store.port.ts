/**
 * Identity aliases of a session's contacts: WhatsApp names a person by phone number (`<number>@c.us`) and by a
 * LID (`<id>@lid`), and a message may carry either. The engine reports each pairing it learns; history filters
 * resolve a sender through it, so `from=<phone>` also finds what was stored under the person's LID and back.
 */
export interface IdentityAlias {
  /** `<id>@lid`. */
  lid: string;
  /** `<number>@c.us`. */
  phone: string;
}

/** A page of a session's aliases and the cursor of the next page (null: no more). */
export interface IdentityAliasPage {
  aliases: IdentityAlias[];
  /** Opaque; hand it back as `after`. */
  next: string | null;
}

export interface IdentityStore {
  /** Records that `lid` and `phone` are one person in this session (a repeat or a changed pairing overwrites). */
  link(sessionId: string, alias: IdentityAlias): Promise<void>;
  /** The other ids of the person `id` names (a phone's LIDs, a LID's phone and that phone's other LIDs). */
  aliasesOf(sessionId: string, id: string): Promise<string[]>;
  /** A page of the session's aliases by LID (the data export); `after` null starts. */
  list(sessionId: string, after: string | null, limit: number): Promise<IdentityAliasPage>;
  /** Forgets a session's aliases (session delete). */
  deleteBySession(sessionId: string): Promise<void>;
}
