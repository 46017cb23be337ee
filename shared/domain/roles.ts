/** API key roles and their ranking: viewer < operator < admin. */
import { z } from 'zod';

export const Role = z.enum(['viewer', 'operator', 'admin']);
export type Role = z.infer<typeof Role>;

const RANK: Record<Role, number> = { viewer: 1, operator: 2, admin: 3 };

/** True when a key of role `held` may call a route that requires `required`. */
export function roleAllows(held: Role, required: Role): boolean {
  return RANK[held] >= RANK[required];
}
