import { SendLocationBody } from '#shared/domain/send-requests.js';
import { defineSendRoute } from './send-route.js';

/** POST …/messages/send-location: a pinned location, with the place's name and address when given. */
export const sendLocationRoute = defineSendRoute({
  action: 'send-location',
  summary: 'Send a location',
  body: SendLocationBody,
  request: ({ chatId, ...location }) => ({ chatId, content: { type: 'location', ...location } }),
});
