import { z } from 'zod';
import { defineRoute } from '#functions/http/route.js';
import { SessionStatus } from '#shared/domain/session.js';
import { requestPairingCode } from '#shared/use-cases/sessions/request-pairing-code.js';
import { SessionIdParams } from './params.js';

const PairingCodeBody = z
  .strictObject({
    phoneNumber: z.string().regex(/^[0-9]{6,15}$/, 'digits only, 6–15 of them, no +'),
  })
  .meta({ examples: [{ phoneNumber: '15550009876' }] });
const PairingCodeResponse = z
  .object({ pairingCode: z.string().length(8), status: SessionStatus })
  .meta({ id: 'PairingCode' });

/** POST /api/sessions/{id}/pairing-code: an 8-character code to link by phone number (201). */
export const requestPairingCodeRoute = defineRoute({
  method: 'POST',
  path: '/api/sessions/{id}/pairing-code',
  summary: 'Request a pairing code (link by phone number)',
  tag: 'Sessions',
  auth: { role: 'operator' },
  params: SessionIdParams,
  body: PairingCodeBody,
  response: PairingCodeResponse,
  success: 201,
  errors: [404, 409],
  capability: 'pairing_code',
  run: ({ deps, caller, params, body }) => requestPairingCode(deps, caller, params.id, body.phoneNumber),
});
