import { mediaDraft, SendVideoBody } from '#shared/domain/send-requests.js';
import { defineSendRoute } from './send-route.js';

/** POST …/messages/send-video: a video by `url` (fetched by the service) or base64 `data` with its `mimetype`. */
export const sendVideoRoute = defineSendRoute({
  action: 'send-video',
  summary: 'Send a video',
  body: SendVideoBody,
  request: (body) => mediaDraft('video', body),
});
