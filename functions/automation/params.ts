import { z } from 'zod';

/** `{sessionId}` of the session's rule routes (scope-checked by the HTTP stack before the route runs). */
export const RuleSessionParams = z.strictObject({
  sessionId: z.uuid({ message: 'must be a session id (uuid)' }),
});

/** `{sessionId}` and the rule's `{ruleId}`. */
export const RuleParams = RuleSessionParams.extend({
  ruleId: z.uuid({ message: 'must be a rule id (uuid)' }),
});
