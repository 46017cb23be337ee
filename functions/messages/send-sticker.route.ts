import { mediaDraft, SendStickerBody } from '#shared/domain/send-requests.js';
import { defineSendRoute } from './send-route.js';

/** POST …/messages/send-sticker: a sticker by `url` (fetched by the service) or base64 `data` with its `mimetype`. */
export const sendStickerRoute = defineSendRoute({
  action: 'send-sticker',
  summary: 'Send a sticker',
  body: SendStickerBody,
  request: (body) => mediaDraft('sticker', body),
});
