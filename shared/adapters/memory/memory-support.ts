/**
 * Helpers shared by the in-memory stores so they mirror the SQLite adapters: nested JSON is copied the way a JSON
 * column round-trips it, and ordering compares timestamps as text like SQLite does.
 */

/** A deep copy with JSON semantics (what a JSON text column would hand back). */
export function jsonCopy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

interface Ordered {
  id: string;
  createdAt: string;
}

/** Binary text order on (createdAt, id), ascending; SQLite's default collation compares the same way for ASCII. */
export function oldestFirst(a: Ordered, b: Ordered): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  if (a.id !== b.id) return a.id < b.id ? -1 : 1;
  return 0;
}

/** Retention's next batch: at most `limit` of `rows` created before `cutoff`, oldest first (as SQLite picks them). */
export function oldestBefore<T extends Ordered>(rows: Iterable<T>, cutoff: Date, limit: number): T[] {
  const bound = cutoff.toISOString();
  return [...rows]
    .filter((row) => row.createdAt < bound)
    .sort(oldestFirst)
    .slice(0, limit);
}

/** The reverse of `oldestFirst`: (createdAt, id) descending. */
export function newestFirst(a: Ordered, b: Ordered): number {
  return oldestFirst(b, a);
}
