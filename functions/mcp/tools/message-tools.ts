/** The message tools: stored history, reactions, and every kind of send an agent may make. */
import { chatHistoryRoute } from '#functions/messages/chat-history.route.js';
import { forwardRoute } from '#functions/messages/forward.route.js';
import { listMessagesRoute } from '#functions/messages/list-messages.route.js';
import { listReactionsRoute } from '#functions/messages/list-reactions.route.js';
import { reactRoute } from '#functions/messages/react.route.js';
import { replyRoute } from '#functions/messages/reply.route.js';
import { sendAudioRoute } from '#functions/messages/send-audio.route.js';
import { sendContactRoute } from '#functions/messages/send-contact.route.js';
import { sendDocumentRoute } from '#functions/messages/send-document.route.js';
import { sendImageRoute } from '#functions/messages/send-image.route.js';
import { sendLocationRoute } from '#functions/messages/send-location.route.js';
import { sendStickerRoute } from '#functions/messages/send-sticker.route.js';
import { sendTemplateRoute } from '#functions/messages/send-template.route.js';
import { sendTextRoute } from '#functions/messages/send-text.route.js';
import { sendVideoRoute } from '#functions/messages/send-video.route.js';
import type { ToolRow } from './tool-row.js';

/** A send tool: each call sends one more message. */
const send = (name: string, calls: ToolRow['calls'], description: string): ToolRow => ({
  name,
  calls,
  tier: 'write',
  description,
});

export const MESSAGE_TOOLS: readonly ToolRow[] = [
  {
    name: 'MessageList',
    calls: listMessagesRoute,
    tier: 'read',
    description: "List a session's stored messages, newest first, optionally of one chat.",
  },
  {
    name: 'MessageHistory',
    calls: chatHistoryRoute,
    tier: 'read',
    description:
      'The history of one chat: its stored messages, newest first, up to limit (1-2000, default 100), with ' +
      'total (all its stored messages) and truncated (older ones exist). chatId is <number>@c.us for a person, ' +
      '<id>@lid for a person by LID, or <group id>@g.us for a group; a person is matched under both ids once ' +
      'paired. includeMedia "true" keeps the media descriptors of each message (mediaPath, mediaMimetype, ' +
      'metadata.media); by default they are left out, and type and caption (body) still say what was sent.',
  },
  {
    name: 'MessageGetReactions',
    calls: listReactionsRoute,
    tier: 'read',
    description: 'List the reactions on one message.',
  },
  send('MessageSendText', sendTextRoute, 'Send a text message to a chat.'),
  send(
    'MessageSendImage',
    sendImageRoute,
    'Send an image (by http(s) URL or base64) with an optional caption.',
  ),
  send(
    'MessageSendVideo',
    sendVideoRoute,
    'Send a video (by http(s) URL or base64) with an optional caption.',
  ),
  send('MessageSendAudio', sendAudioRoute, 'Send an audio file or a voice note (by http(s) URL or base64).'),
  send(
    'MessageSendDocument',
    sendDocumentRoute,
    'Send a document (by http(s) URL or base64) with a file name.',
  ),
  send('MessageSendSticker', sendStickerRoute, 'Send a sticker (by http(s) URL or base64).'),
  send('MessageSendLocation', sendLocationRoute, 'Send a location (latitude, longitude, optional name).'),
  send('MessageSendContact', sendContactRoute, 'Send a contact card.'),
  send(
    'MessageSendTemplate',
    sendTemplateRoute,
    "Send one of the session's message templates with its variables.",
  ),
  send('MessageReply', replyRoute, 'Reply to a message with text, quoting it.'),
  send('MessageForward', forwardRoute, 'Forward a message to another chat.'),
  {
    name: 'MessageReact',
    calls: reactRoute,
    tier: 'write',
    idempotent: true,
    description: 'React to a message with an emoji; an empty emoji removes the reaction.',
  },
];
