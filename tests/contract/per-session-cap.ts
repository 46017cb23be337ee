/**
 * The per-session cap both webhooks and automation rules have on creation, as one shared block of contract tests:
 * the count and the insert are one atomic step, sessions are counted apart, deleting frees room and 0 means none.
 */
import { ValidationError } from '#shared/errors/app-error.js';

interface Capped<T> {
  /** A fresh record of `sessionId`. */
  make(sessionId: string): T;
  create(record: T, maxPerSession: number): Promise<void>;
  remove(record: T): Promise<void>;
  count(sessionId: string): Promise<number>;
  /** Two sessions that exist in the store under test. */
  sessions(): [string, string];
  code: string;
}

export function perSessionCapTests<T>(capped: Capped<T>): void {
  it('refuses a record over the cap with a 400 naming the limit, counting each session apart', async () => {
    const [s1, s2] = capped.sessions();
    await capped.create(capped.make(s1), 2);
    await capped.create(capped.make(s1), 2);
    const over = capped.create(capped.make(s1), 2);
    await expect(over).rejects.toBeInstanceOf(ValidationError);
    await expect(capped.create(capped.make(s1), 2)).rejects.toMatchObject({
      status: 400,
      code: capped.code,
      details: { maxPerSession: 2 },
    });
    await capped.create(capped.make(s2), 2);
    expect([await capped.count(s1), await capped.count(s2)]).toEqual([2, 1]);
  });

  it('makes room again once a record is deleted', async () => {
    const [s1] = capped.sessions();
    const first = capped.make(s1);
    await capped.create(first, 1);
    await expect(capped.create(capped.make(s1), 1)).rejects.toMatchObject({ code: capped.code });
    await capped.remove(first);
    await capped.create(capped.make(s1), 1);
    expect(await capped.count(s1)).toBe(1);
  });

  it('has no cap with maxPerSession 0', async () => {
    const [s1] = capped.sessions();
    for (let i = 0; i < 5; i++) await capped.create(capped.make(s1), 0);
    expect(await capped.count(s1)).toBe(5);
    await expect(capped.create(capped.make(s1), 5)).rejects.toMatchObject({ code: capped.code });
  });

  it('lets exactly the cap through when creates race', async () => {
    const [s1] = capped.sessions();
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, () => capped.create(capped.make(s1), 3)),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(3);
    expect(await capped.count(s1)).toBe(3);
  });
}
