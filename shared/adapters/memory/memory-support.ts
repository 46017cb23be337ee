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

/** The reverse of `oldestFirst`: (createdAt, id) descending. */
export function newestFirst(a: Ordered, b: Ordered): number {
  return oldestFirst(b, a);
}
