/** Schemas shared by several resources: ids, timestamps, pagination. */
import { z } from 'zod';

export const Uuid = z.uuid();
export const IsoTimestamp = z.iso.datetime({ offset: true });

/** `limit` 1–1000 (default 1000) and `offset` ≥ 0 on list routes; query strings are coerced. */
export const PageQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(1000).default(1000),
  offset: z.coerce.number().int().min(0).default(0),
});
export type PageQuery = z.infer<typeof PageQuery>;

export interface Page {
  limit: number;
  offset: number;
}
