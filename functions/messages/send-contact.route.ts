import { contactVCard, SendContactBody } from '#shared/domain/send-requests.js';
import { defineSendRoute } from './send-route.js';

/** POST …/messages/send-contact: a contact card (a vCard built from the name and number). */
export const sendContactRoute = defineSendRoute({
  action: 'send-contact',
  summary: 'Send a contact card',
  body: SendContactBody,
  request: ({ chatId, contactName, contactNumber, quotedMessageId }) => ({
    chatId,
    content: {
      type: 'contact',
      displayName: contactName,
      vcards: [contactVCard(contactName, contactNumber)],
      quotedMessageId,
    },
  }),
});
