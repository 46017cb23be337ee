/**
 * Turns what a send request asks for (a SendDraft, which names messages by id) into outgoing content, resolving every
 * message it points at in the session's stored history: the quote of a reply, the message a forward copies, the
 * target of a reaction, edit or revoke. What WhatsApp would refuse or silently ignore is refused here, before a row
 * is stored: an edit of someone else's message, a reaction to a deleted one, an edit after WhatsApp's window.
 */
import { contentOfStored } from '#shared/domain/content-kinds.js';
import type { Message } from '#shared/domain/message.js';
import { isEditableType, REVOKED_TYPE } from '#shared/domain/message-changes.js';
import {
  isChangeContent,
  type MessageRef,
  type OutgoingContent,
  type QuotedRef,
} from '#shared/domain/outgoing-content.js';
import type { MediaDraft, SendDraft } from '#shared/domain/send-requests.js';
import { isGroupChat } from '#shared/domain/wa-ids.js';
import { NotFoundError, ValidationError } from '#shared/errors/app-error.js';
import type { MessageStore } from '#shared/ports/message-store.port.js';
import { archiveDraftFile, copyArchivedFile, type DraftFiles } from './draft-media.js';
import { findChatMessage } from './find-chat-message.js';

/** WhatsApp lets a text be edited for 15 minutes after it was sent. */
export const EDIT_WINDOW_SECONDS = 15 * 60;
/** WhatsApp lets a message be deleted for everyone for about two and a half days after it was sent. */
export const REVOKE_WINDOW_SECONDS = 60 * 60 * 60;

const CHANGE_TYPES = new Set(['reaction', 'edit', 'revoke']);

export interface DraftContext {
  /** Archiving a media send's file (absent: media sends are refused), and the id it is archived under. */
  files?: DraftFiles & { messageId: string };
  messages: MessageStore;
  sessionId: string;
  chatId: string;
  /** Epoch seconds now. */
  now: number;
}

/** The outgoing content `draft` asks for (404 MESSAGE_NOT_FOUND, 400 MESSAGE_NOT_* when it cannot be sent). */
export async function resolveDraft(ctx: DraftContext, draft: SendDraft): Promise<OutgoingContent> {
  switch (draft.type) {
    case 'image':
    case 'video':
    case 'audio':
    case 'document':
    case 'sticker':
      return mediaContent(ctx, draft);
    case 'text':
    case 'location':
    case 'contact': {
      const { quotedMessageId, ...content } = draft;
      if (quotedMessageId === undefined) return content;
      return { ...content, quoted: quotedRef(await shown(ctx, ctx.chatId, quotedMessageId, 'quote')) };
    }
    case 'forward':
      return ownFile(ctx, forwarded(await findInChat(ctx, draft.fromChatId, draft.messageId)));
    case 'reaction': {
      const target = await shown(ctx, ctx.chatId, draft.messageId, 'react to');
      return { type: 'reaction', target: refOf(target), emoji: draft.emoji };
    }
    case 'edit': {
      const target = await own(ctx, draft.messageId, 'MESSAGE_NOT_EDITABLE', 'edited');
      if (!isEditableType(target.type)) {
        throw new ValidationError(`Only texts can be edited; this message is a ${target.type}`, {
          code: 'MESSAGE_NOT_EDITABLE',
        });
      }
      within(target, ctx.now, EDIT_WINDOW_SECONDS, 'MESSAGE_NOT_EDITABLE', 'edited');
      const { mentions } = draft;
      return { type: 'edit', target: refOf(target), text: draft.text, ...(mentions ? { mentions } : {}) };
    }
    case 'revoke': {
      const target = await own(ctx, draft.messageId, 'MESSAGE_NOT_REVOCABLE', 'deleted for everyone');
      within(target, ctx.now, REVOKE_WINDOW_SECONDS, 'MESSAGE_NOT_REVOCABLE', 'deleted for everyone');
      return { type: 'revoke', target: refOf(target) };
    }
  }
}

/** What archiving a file of this send needs, and the message it is archived under; refused where media cannot go. */
function filesOf(ctx: DraftContext, type: string) {
  if (!ctx.files) throw new ValidationError(`A ${type} cannot be sent from here`);
  const { messageId, ...files } = ctx.files;
  return { files, target: { sessionId: ctx.sessionId, messageId } };
}

async function mediaContent(ctx: DraftContext, draft: MediaDraft): Promise<OutgoingContent> {
  const { files, target } = filesOf(ctx, draft.type);
  // A quoted message that is not there refuses the send before the file is fetched.
  const quoted =
    draft.quotedMessageId === undefined
      ? undefined
      : quotedRef(await shown(ctx, ctx.chatId, draft.quotedMessageId, 'quote'));
  const file = await archiveDraftFile(files, target, draft);
  const context = { ...(quoted ? { quoted } : {}) };
  const caption = draft.caption ? { caption: draft.caption } : {};
  const mentions = draft.mentions?.length ? { mentions: draft.mentions } : {};
  switch (draft.type) {
    case 'audio':
      return { type: 'audio', file, ptt: draft.ptt ?? false, ...context };
    case 'sticker':
      return { type: 'sticker', file, ...context };
    default:
      return { type: draft.type, file, ...caption, ...mentions, ...context };
  }
}

/** The stored message `id` (network id or stored id) of `chatId`; 404 when the chat has none. */
async function findInChat(ctx: DraftContext, chatId: string, id: string): Promise<Message> {
  const message = await findChatMessage(ctx.messages, ctx.sessionId, chatId, id);
  // A row without a network id never reached the network: there is nothing there to point at.
  if (!message.waMessageId) {
    throw new NotFoundError(`Message '${id}' not found in chat ${chatId}`, { code: 'MESSAGE_NOT_FOUND' });
  }
  return message;
}

/** A message shown in the chat: not a reaction, edit or revoke, not deleted, not a send that failed. */
async function shown(ctx: DraftContext, chatId: string, id: string, verb: string): Promise<Message> {
  const message = await findInChat(ctx, chatId, id);
  const reason = CHANGE_TYPES.has(message.type)
    ? `it is a ${message.type}`
    : message.type === REVOKED_TYPE
      ? 'it was deleted for everyone'
      : message.status === 'failed' || message.status === 'pending'
        ? `its send is ${message.status}`
        : null;
  if (reason) {
    throw new ValidationError(`Cannot ${verb} message '${id}': ${reason}`, { code: 'MESSAGE_NOT_SHOWN' });
  }
  return message;
}

/** A message this account sent and the chat shows. */
async function own(
  ctx: DraftContext,
  id: string,
  code: 'MESSAGE_NOT_EDITABLE' | 'MESSAGE_NOT_REVOCABLE',
  done: string,
): Promise<Message> {
  const message = await findInChat(ctx, ctx.chatId, id);
  if (message.direction !== 'outgoing') {
    throw new ValidationError(`Only messages this account sent can be ${done}`, { code });
  }
  try {
    return await shown(ctx, ctx.chatId, id, `have ${done}`);
  } catch (error) {
    if (error instanceof ValidationError) throw new ValidationError(error.message, { code, cause: error });
    throw error;
  }
}

function within(
  target: Message,
  now: number,
  windowSeconds: number,
  code: 'MESSAGE_NOT_EDITABLE' | 'MESSAGE_NOT_REVOCABLE',
  done: string,
): void {
  if (target.timestamp !== null && now - target.timestamp > windowSeconds) {
    throw new ValidationError(
      `WhatsApp lets a message be ${done} only within ${Math.round(windowSeconds / 60)} minutes of sending`,
      { code },
    );
  }
}

function refOf(message: Message): MessageRef {
  const fromMe = message.direction === 'outgoing';
  const participant = isGroupChat(message.chatId) && !fromMe ? message.author : null;
  return { id: message.waMessageId ?? message.id, fromMe, ...(participant ? { participant } : {}) };
}

function quotedRef(message: Message): QuotedRef {
  return { ...refOf(message), body: message.body };
}

/**
 * A forward of a media message with its own copy of the file, archived under the new message's id: each message
 * owns its file, so a revoke or a failed send of one never takes another's.
 */
async function ownFile(ctx: DraftContext, content: OutgoingContent): Promise<OutgoingContent> {
  if (!('file' in content)) return content;
  const { files, target } = filesOf(ctx, content.type);
  const file = await copyArchivedFile(files, target, content.file);
  if (!file) {
    throw new ValidationError(`This ${content.type} message's file is no longer archived`, {
      code: 'MESSAGE_NOT_FORWARDABLE',
    });
  }
  return { ...content, file };
}

/** The content of a stored message, sent again as a forward: without its quote or mentions. */
function forwarded(source: Message): OutgoingContent {
  const content = contentOfStored(source);
  if (!content || isChangeContent(content) || source.type === REVOKED_TYPE) {
    throw new ValidationError(`A ${source.type} message cannot be forwarded`, {
      code: 'MESSAGE_NOT_FORWARDABLE',
    });
  }
  const { quoted: _quoted, ...rest } = content;
  if (rest.type === 'text') {
    const { mentions: _mentions, ...text } = rest;
    return { ...text, forwarded: true };
  }
  return { ...rest, forwarded: true };
}
