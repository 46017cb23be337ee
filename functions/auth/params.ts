import { z } from 'zod';

export const ApiKeyIdParams = z.strictObject({ id: z.string().min(1).max(64) });
