import { mediaDraft, SendAudioBody } from '#shared/domain/send-requests.js';
import { defineSendRoute } from './send-route.js';

/** POST …/messages/send-audio: a audio by `url` (fetched by the service) or base64 `data` with its `mimetype`. */
export const sendAudioRoute = defineSendRoute({
  action: 'send-audio',
  summary: 'Send a audio',
  body: SendAudioBody,
  request: (body) => mediaDraft('audio', body),
});
