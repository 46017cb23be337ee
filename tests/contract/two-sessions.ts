/**
 * The set-up of contracts whose records belong to sessions: before each test the store under test is opened and two
 * sessions are created in its data store (stores may refuse records of unknown sessions); after it the store closes.
 */
import type { SessionStore } from '#shared/ports/session-store.port.js';
import { aSession } from '#tests/helpers/builders.js';

/** The store under test plus the session store of the same data store. */
export interface OpenedWithSessions<S> {
  store: S;
  sessions: SessionStore;
  close(): Promise<void>;
}

/** What each test reads: the store, and the ids of the two sessions (fresh for every test). */
export interface TwoSessions<S> {
  readonly store: S;
  readonly s1: string;
  readonly s2: string;
}

/** Registers the beforeEach/afterEach of the set-up in the calling describe block. */
export function withTwoSessions<S>(open: () => Promise<OpenedWithSessions<S>>): TwoSessions<S> {
  const current = {} as { store: S; s1: string; s2: string };
  let close: () => Promise<void> = async () => undefined;
  beforeEach(async () => {
    const opened = await open();
    ({ store: current.store, close } = opened);
    const [first, second] = [aSession(), aSession()];
    for (const session of [first, second]) await opened.sessions.create(session);
    current.s1 = first.id;
    current.s2 = second.id;
  });
  afterEach(async () => {
    await close();
  });
  return current;
}
