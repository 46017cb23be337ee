import { z } from 'zod';
import { PersonId } from '#shared/domain/person-ids.js';

const SessionId = z.uuid({ message: 'must be a session id (uuid)' });
/** A status's network id (letters, digits, `_` and `-`, as WhatsApp's ids are). */
const StatusId = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9_-]+$/, 'must be a status id');

export const SessionParams = z.strictObject({ sessionId: SessionId });
export const StatusParams = z.strictObject({ sessionId: SessionId, statusId: StatusId });
export const ContactParams = z.strictObject({ sessionId: SessionId, contactId: PersonId });
