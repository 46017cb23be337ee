import { z } from 'zod';
import { BatchIdField } from '#shared/domain/message-batch.js';

const SessionId = z.uuid({ message: 'must be a session id (uuid)' });

/** `{sessionId}` of the message routes. */
export const MessageSessionParams = z.strictObject({ sessionId: SessionId });

/** `{sessionId}` and `{batchId}` of the batch routes. */
export const BatchParams = z.strictObject({ sessionId: SessionId, batchId: BatchIdField });
