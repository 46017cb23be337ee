import { z } from 'zod';

/** `{sessionId}` of the message routes. */
export const MessageSessionParams = z.strictObject({
  sessionId: z.uuid({ message: 'must be a session id (uuid)' }),
});
