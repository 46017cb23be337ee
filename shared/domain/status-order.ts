/** The order of a status list, shared by the stores: newest first (postedAt descending), then statusId. */
import type { StatusRecord } from './status-update.js';

export function newestStatusFirst(a: StatusRecord, b: StatusRecord): number {
  if (a.postedAt !== b.postedAt) return b.postedAt - a.postedAt;
  if (a.statusId !== b.statusId) return a.statusId < b.statusId ? -1 : 1;
  return 0;
}
