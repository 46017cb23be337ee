/**
 * The history of one chat (issue 38's `MessageHistory`): the stored messages of a chat, newest first, up to a limit,
 * each message with or without its media descriptors. A message's media descriptors are the row's `mediaPath` (the
 * file's key in the media archive) and `mediaMimetype`, and `metadata.media` (the file's type, name, size, duration,
 * or why it was not archived); the message's `type` (`image`, `document`, …) and its caption (`body`) are content,
 * so a message keeps them either way and still shows what kind of file it carried.
 */
import { z } from 'zod';
import { Message, MessageView } from './message.js';

/** Messages answered when the caller names no limit. */
export const CHAT_HISTORY_DEFAULT_LIMIT = 100;

/** Most messages one call answers. */
export const CHAT_HISTORY_MAX_LIMIT = 2000;

/** A message of a chat's history: the history's message, its media descriptors absent unless asked for. */
export const ChatHistoryMessage = MessageView.extend({
  mediaPath: Message.shape.mediaPath.optional(),
  mediaMimetype: Message.shape.mediaMimetype.optional(),
}).meta({ id: 'ChatHistoryMessage' });
export type ChatHistoryMessage = z.infer<typeof ChatHistoryMessage>;

/** The answer: the chat asked for, its newest messages, and how many it has stored in all. */
export const ChatHistory = z
  .object({
    chatId: z.string(),
    messages: z
      .array(ChatHistoryMessage)
      .describe(
        'Newest first (by timestamp, then by when stored). Without includeMedia, each message leaves out ' +
          'mediaPath, mediaMimetype and metadata.media; its type and caption (body) stay.',
      ),
    total: z.number().int().describe('Messages of the chat stored in all (its every id counted).'),
    truncated: z.boolean().describe('The chat holds older messages than the limit reached.'),
  })
  .meta({ id: 'ChatHistory' });
export type ChatHistory = z.infer<typeof ChatHistory>;

/** `message` without its media descriptors: no `mediaPath`, no `mediaMimetype`, no `metadata.media`. */
export function withoutMedia(message: MessageView): ChatHistoryMessage {
  const { mediaPath: _path, mediaMimetype: _mimetype, ...rest } = message;
  if (!rest.metadata || !('media' in rest.metadata)) return rest;
  const { media: _media, ...metadata } = rest.metadata;
  return { ...rest, metadata };
}
