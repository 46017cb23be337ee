import { z } from 'zod';

/** `{sessionId}` of the session's template routes (scope-checked by the HTTP stack before the route runs). */
export const TemplateSessionParams = z.strictObject({
  sessionId: z.uuid({ message: 'must be a session id (uuid)' }),
});

/** `{sessionId}` and the template's `{templateId}`. */
export const TemplateParams = TemplateSessionParams.extend({
  templateId: z.uuid({ message: 'must be a template id (uuid)' }),
});
