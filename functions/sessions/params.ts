import { z } from 'zod';

/** `{id}` of the session routes: a uuid (sessions resolve by id, never by name). */
export const SessionIdParams = z.strictObject({ id: z.uuid({ message: 'must be a session id (uuid)' }) });
