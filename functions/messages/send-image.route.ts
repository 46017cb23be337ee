import { mediaDraft, SendImageBody } from '#shared/domain/send-requests.js';
import { defineSendRoute } from './send-route.js';

/** POST …/messages/send-image: a image by `url` (fetched by the service) or base64 `data` with its `mimetype`. */
export const sendImageRoute = defineSendRoute({
  action: 'send-image',
  summary: 'Send an image',
  body: SendImageBody,
  request: (body) => mediaDraft('image', body),
});
