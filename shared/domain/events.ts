/**
 * Gateway events: the typed map from event name to the zod schema of its `data` (shapes of openwa-facts §4.4).
 * Webhooks, the outbox, the event bus and metrics all key on these literal names; nothing builds an event name
 * from strings. An event joins the map when its source exists; the names the spec lists but nothing emits yet are
 * in EVENT_NAMES already, so webhooks may subscribe to them.
 */
import { z } from 'zod';
import { PresenceParticipant } from './chat-presence.js';
import { GroupChanges } from './group.js';
import { mediaRoutePath } from './media.js';
import { type Message, MessageStatus } from './message.js';
import { MessageEditedData, MessageReactionData, MessageRevokedData } from './message-change-events.js';
import { LocationMetadata, MediaMetadata, QuotedMetadata, VCardsMetadata } from './message-metadata.js';
import { EventPersonIds, type PersonLookup } from './person-ids.js';
import { SessionStatus } from './session.js';
import { StatusReceivedData } from './status-update.js';
import { isGroupChat } from './wa-ids.js';

export const EVENT_NAMES = [
  'message.received',
  'message.sent',
  'message.ack',
  'message.failed',
  'message.revoked',
  'message.reaction',
  'message.edited',
  'status.received',
  'session.status',
  'session.qr',
  'session.authenticated',
  'session.disconnected',
  'session.reconnect_loop',
  'session.restriction',
  'presence.update',
  'group.join',
  'group.leave',
  'group.update',
  'call.received',
  'call.accepted',
  'call.rejected',
  'call.missed',
] as const;
export type EventName = (typeof EVENT_NAMES)[number];

/**
 * A media message's file as events carry it: its type, name and size; `url`, the API path that serves it (when the
 * file is archived); and, in a webhook payload, `data`, the bytes base64-encoded when they are at most
 * WEBHOOK_MEDIA_INLINE_MAX_BYTES (read from the archive at delivery: shared/webhooks/delivery-media.ts).
 */
export const EventMedia = MediaMetadata.extend({
  url: z.string().optional(),
  data: z.string().optional(),
});
export type EventMedia = z.infer<typeof EventMedia>;

/** A message as events carry it (`message.received`, `message.sent`): neutral chat ids, epoch-second time. */
export const MessageEventData = z.object({
  /** The network message id. */
  id: z.string(),
  /** The stored message's id (`GET …/messages` rows). */
  messageId: z.string(),
  chatId: z.string(),
  from: z.string(),
  to: z.string(),
  author: z.string().nullable(),
  body: z.string(),
  type: z.string(),
  timestamp: z.number().int(),
  fromMe: z.boolean(),
  isGroup: z.boolean(),
  mentionedIds: z.array(z.string()).optional(),
  /** A location's place (openwa-facts §3 IncomingMessage). */
  location: LocationMetadata.optional(),
  /** A contact card's vCards, one per contact shared. */
  vCards: VCardsMetadata.optional(),
  /** The message a reply quotes; `body` is `''` when it had no text, as a message's own body is. */
  quotedMessage: z.object({ id: z.string(), body: z.string() }).optional(),
  /** A media message's file (served by `GET …/messages/{chatId}/{messageId}/media`). */
  media: EventMedia.optional(),
  /** Who wrote it (the author in a group, else `from`) by phone number and by LID. */
  sender: EventPersonIds,
});
export type MessageEventData = z.infer<typeof MessageEventData>;

/** The event form of a stored message (`message.received`, `message.sent`); `people` knows its sender's ids. */
export function messageEventData(message: Message, people: PersonLookup): MessageEventData {
  const mentions = message.metadata?.mentions;
  return {
    id: message.waMessageId ?? message.id,
    messageId: message.id,
    chatId: message.chatId,
    from: message.from,
    to: message.to,
    author: message.author,
    body: message.body ?? '',
    type: message.type,
    timestamp: message.timestamp ?? Math.floor(Date.parse(message.createdAt) / 1000),
    fromMe: message.direction === 'outgoing',
    isGroup: isGroupChat(message.chatId),
    ...(Array.isArray(mentions) ? { mentionedIds: mentions.map(String) } : {}),
    ...kindFields(message),
    sender: people(message.author ?? message.from),
  };
}

/**
 * The event fields of a stored message's kind-specific metadata (message-metadata.ts). Each is read on its own: a
 * row written before a field's shape settled loses that field from its events, never the event.
 */
function kindFields(
  message: Message,
): Pick<MessageEventData, 'location' | 'vCards' | 'quotedMessage' | 'media'> {
  const { metadata } = message;
  if (!metadata) return {};
  const location = LocationMetadata.safeParse(metadata.location).data;
  const vCards = VCardsMetadata.safeParse(metadata.vCards).data;
  const quoted = QuotedMetadata.safeParse(metadata.quotedMessage).data;
  const media = MediaMetadata.safeParse(metadata.media).data;
  return {
    ...(media ? { media: message.mediaPath ? { ...media, url: mediaRoutePath(message) } : media } : {}),
    ...(location ? { location } : {}),
    ...(vCards ? { vCards } : {}),
    ...(quoted ? { quotedMessage: { id: quoted.id, body: quoted.body ?? '' } } : {}),
  };
}

/** WhatsApp's legacy numeric ack of each status (openwa-facts §4.4), carried beside it for older receivers. */
export const LEGACY_ACK: Record<MessageStatus, number> = {
  failed: -1,
  pending: 0,
  sent: 1,
  delivered: 2,
  read: 3,
};

/** A delivery-state change of an outgoing message (`message.ack`, `message.failed`). */
export const MessageAckData = z.object({
  /** The stored message id. */
  id: z.string(),
  /** The network message id. */
  messageId: z.string(),
  chatId: z.string(),
  status: MessageStatus,
  ack: z.number().int(),
  /** The person the message went to, by phone number and by LID (null in a group). */
  recipient: EventPersonIds,
});
export type MessageAckData = z.infer<typeof MessageAckData>;

const CallData = z.object({
  callId: z.string(),
  from: z.string(),
  /** The caller (`from`) by phone number and by LID. */
  caller: EventPersonIds,
  isVideo: z.boolean(),
  isGroup: z.boolean(),
  /** Epoch seconds. */
  timestamp: z.number().int(),
});

/** The `message.failed` event of an outgoing message that will not be sent. */
export function messageFailedEvent(
  message: Message,
  error: string,
  occurredAt: Date,
  people: PersonLookup,
): GatewayEvent {
  return {
    event: 'message.failed',
    sessionId: message.sessionId,
    occurredAt: occurredAt.toISOString(),
    data: {
      id: message.id,
      messageId: message.waMessageId ?? '',
      chatId: message.chatId,
      status: 'failed',
      ack: LEGACY_ACK.failed,
      recipient: people(message.chatId),
      error,
    },
  };
}

/** Who joined or left a group (or, in an update, was promoted or demoted), each by both ids in `participants`. */
const GroupMembershipData = z.object({
  sessionId: z.string(),
  groupId: z.string(),
  /** Who did it, when the network tells; `actor` by both ids. */
  actorId: z.string().nullable(),
  actor: EventPersonIds,
  participantIds: z.array(z.string()),
  participants: z.array(EventPersonIds),
  /** Epoch seconds. */
  timestamp: z.number().int(),
});

/** The `data` schema of every event the gateway emits today. */
export const EVENT_DATA = {
  'message.received': MessageEventData,
  'message.sent': MessageEventData,
  'message.ack': MessageAckData,
  'message.failed': MessageAckData.extend({ error: z.string() }),
  'message.reaction': MessageReactionData,
  'message.edited': MessageEditedData,
  'message.revoked': MessageRevokedData,
  /** A contact posted a status update (opt-in: list it, or `*`). */
  'status.received': StatusReceivedData,
  'session.status': z.object({ sessionId: z.string(), status: SessionStatus }),
  /** `qr` is a PNG data URL, the same value the QR route answers. */
  'session.qr': z.object({ sessionId: z.string(), qr: z.string() }),
  'session.authenticated': z.object({
    sessionId: z.string(),
    phone: z.string(),
    pushName: z.string().nullable(),
  }),
  'session.disconnected': z.object({ sessionId: z.string(), reason: z.string() }),
  'session.reconnect_loop': z.object({
    sessionId: z.string(),
    attempts: z.number().int(),
    nextDelayMs: z.number().int(),
  }),
  'session.restriction': z.object({
    sessionId: z.string(),
    active: z.boolean(),
    kind: z.string(),
    code: z.string().nullable(),
    expiresAt: z.string().nullable(),
  }),
  'presence.update': z.object({
    sessionId: z.string(),
    chatId: z.string(),
    /** Each person of the chat with what they show, by phone number and by LID (`person`). */
    participants: z.array(PresenceParticipant.extend({ person: EventPersonIds })),
    observedAt: z.iso.datetime({ offset: true }),
  }),
  'group.join': GroupMembershipData,
  'group.leave': GroupMembershipData,
  'group.update': GroupMembershipData.extend({ changes: GroupChanges }),
  'call.received': CallData,
  'call.accepted': CallData.extend({ sessionId: z.string(), outcome: z.literal('accepted') }),
  'call.rejected': CallData.extend({ sessionId: z.string(), outcome: z.literal('rejected') }),
  'call.missed': CallData.extend({ sessionId: z.string(), outcome: z.literal('missed') }),
} as const satisfies Partial<Record<EventName, z.ZodType>>;

export type EmittedEventName = keyof typeof EVENT_DATA;
export const EMITTED_EVENT_NAMES = Object.keys(EVENT_DATA) as EmittedEventName[];
export type GatewayEventMap = { [K in EmittedEventName]: z.infer<(typeof EVENT_DATA)[K]> };

export type GatewayEvent = {
  [K in EmittedEventName]: { event: K; sessionId: string; occurredAt: string; data: GatewayEventMap[K] };
}[EmittedEventName];

/** An event as the outbox stores and relays it: any emitted event, its data checked against its schema. */
export const GatewayEventEnvelope = z.object({
  event: z.enum(EMITTED_EVENT_NAMES as [EmittedEventName, ...EmittedEventName[]]),
  sessionId: z.string(),
  occurredAt: z.iso.datetime({ offset: true }),
  data: z.record(z.string(), z.unknown()),
});

/** Parses an event read back from storage or a queue: the envelope, then its data by the event's schema. */
export function parseGatewayEvent(value: unknown): GatewayEvent {
  const envelope = GatewayEventEnvelope.parse(value);
  const data = EVENT_DATA[envelope.event].parse(envelope.data);
  return { ...envelope, data } as GatewayEvent;
}
