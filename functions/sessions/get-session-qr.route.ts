import { z } from 'zod';
import { defineRoute } from '#functions/http/route.js';
import { SessionStatus } from '#shared/domain/session.js';
import { getSessionQr } from '#shared/use-cases/sessions/get-session-qr.js';
import { SessionIdParams } from './params.js';

const QrResponse = z.object({ qrCode: z.string(), status: SessionStatus }).meta({ id: 'SessionQr' });

/** GET /api/sessions/{id}/qr: the QR to scan, as a PNG data URL (400 when none is showing). */
export const getSessionQrRoute = defineRoute({
  method: 'GET',
  path: '/api/sessions/{id}/qr',
  summary: 'Get the QR code to link the session',
  tag: 'Sessions',
  auth: { role: 'operator' },
  params: SessionIdParams,
  response: QrResponse,
  success: 200,
  errors: [400, 404],
  run: ({ deps, caller, params }) => getSessionQr(deps, caller, params.id),
});
