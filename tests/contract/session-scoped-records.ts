/**
 * What automation rules and templates show alike as records of a session, as one shared block of contract tests (as
 * per-session-cap.ts is for the cap): a session's list in the store's order, with the id breaking ties of one
 * createdAt and no other session's records, and deleting one record or every record of a session.
 */
import { at } from '#tests/helpers/builders.js';

interface Scoped<T> {
  /** A fresh record of `sessionId`; `id` and `createdAt` when given. */
  make(fields: { sessionId: string; id?: string; createdAt?: string }): T;
  create(record: T): Promise<void>;
  list(sessionId: string): Promise<T[]>;
  delete(sessionId: string, id: string): Promise<boolean>;
  deleteBySession(sessionId: string): Promise<number>;
  /** Two sessions that exist in the store under test. */
  sessions(): [string, string];
  /** The order of a session's list: by (createdAt, id), ascending or descending. */
  order: 'oldest first' | 'newest first';
}

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

export function sessionScopedRecordTests<T extends { id: string }>(scoped: Scoped<T>): void {
  const seed = async (...records: T[]): Promise<T[]> => {
    for (const record of records) await scoped.create(record);
    return records;
  };
  const ids = (records: T[]) => records.map((record) => record.id);

  it(`lists a session ${scoped.order}, id breaking ties, without other sessions`, async () => {
    const [s1, s2] = scoped.sessions();
    const oldestFirst = [
      scoped.make({ sessionId: s1, createdAt: at(1) }),
      scoped.make({ sessionId: s1, id: '10000000-0000-4000-8000-000000000000', createdAt: at(2) }),
      scoped.make({ sessionId: s1, id: '20000000-0000-4000-8000-000000000000', createdAt: at(2) }),
      scoped.make({ sessionId: s1, createdAt: at(3) }),
    ] as const;
    const [old, tieA, tieB, newest] = oldestFirst;
    await seed(tieB, newest, scoped.make({ sessionId: s2, createdAt: at(0) }), old, tieA);
    await seed(scoped.make({ sessionId: s2, createdAt: at(9) }));
    const expected = ids([...oldestFirst]);
    if (scoped.order === 'newest first') expected.reverse();
    expect(ids(await scoped.list(s1))).toEqual(expected);
    expect(await scoped.list(UNKNOWN)).toEqual([]);
  });

  it("deletes one record, or every record of a session, leaving other sessions'", async () => {
    const [s1, s2] = scoped.sessions();
    const [gone, , , other] = await seed(
      scoped.make({ sessionId: s1 }),
      scoped.make({ sessionId: s1 }),
      scoped.make({ sessionId: s1 }),
      scoped.make({ sessionId: s2 }),
    );
    expect(await scoped.delete(s2, gone!.id)).toBe(false);
    expect(await scoped.delete(s1, gone!.id)).toBe(true);
    expect(await scoped.delete(s1, gone!.id)).toBe(false);
    expect(await scoped.deleteBySession(s1)).toBe(2);
    expect(await scoped.list(s1)).toEqual([]);
    expect(await scoped.list(s2)).toEqual([other]);
    expect(await scoped.deleteBySession(s1)).toBe(0);
  });
}
