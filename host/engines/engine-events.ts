/**
 * Engine events: the typed map from event name to payload schema through which an engine reports to its session
 * runner (as GatewayEventMap does for the gateway's own events). Types come from the schemas; the payloads are not
 * parsed on the way (inbound messages are the hot path, and engines build them from already-checked network data):
 * `checkedEmitter` validates where that is cheap and catches mistakes, in the test engine and in tests.
 */
import { z } from 'zod';
import { ChatChange } from '#shared/domain/chat.js';
import { ChatPresence } from '#shared/domain/chat-presence.js';
import { GroupChanges } from '#shared/domain/group.js';
import { MediaMetadata, ReceivedMetadata } from '#shared/domain/message-metadata.js';
import { StatusType } from '#shared/domain/status-update.js';

/** The account a linked device belongs to. */
export const LinkedIdentity = z.object({ phone: z.string(), pushName: z.string().nullable() });
export type LinkedIdentity = z.infer<typeof LinkedIdentity>;

export const DisconnectInfo = z.object({
  reason: z.string(),
  /** The network unlinked the device (credentials are void): no reconnect, status disconnected. */
  loggedOut: z.boolean(),
});
export type DisconnectInfo = z.infer<typeof DisconnectInfo>;

/** A message that arrived from the network, in neutral ids (`<number>@c.us`, `<id>@g.us`). */
export const InboundMessage = z.object({
  waMessageId: z.string(),
  chatId: z.string(),
  /** The sender; for group messages the group (the participant is `author`). */
  from: z.string(),
  to: z.string(),
  author: z.string().nullable(),
  body: z.string().nullable(),
  type: z.string(),
  /** Epoch seconds. */
  timestamp: z.number(),
  pushName: z.string().nullable(),
  /** What the kind carries beside its body (a location, contact cards, a file's description, a quote). */
  metadata: ReceivedMetadata.optional(),
  /** The file of a media message, downloaded by the engine before the hand-over (absent when `media.omitted`). */
  mediaBytes: z.instanceof(Uint8Array).optional(),
});
export type InboundMessage = z.infer<typeof InboundMessage>;

/**
 * A contact changed a message of a chat: reacted to it (`emoji` '' takes the reaction back), edited its text, or
 * deleted it for everyone. Ids are neutral; `timestamp` is the change's own network time (epoch seconds).
 */
export const InboundChange = z.object({
  /** The network id of the message changed. */
  targetId: z.string(),
  chatId: z.string(),
  /** Who changed it. */
  senderId: z.string(),
  timestamp: z.number(),
  change: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('reaction'), emoji: z.string() }),
    z.object({ kind: z.literal('edit'), body: z.string() }),
    z.object({ kind: z.literal('revoke') }),
  ]),
});
export type InboundChange = z.infer<typeof InboundChange>;

/**
 * A contact's status update: posted (with its file downloaded before the hand-over, as a message's is), or deleted
 * by them for everyone. Ids are neutral; `timestamp` is the posting's network time (epoch seconds).
 */
export const InboundStatus = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('posted'),
    statusId: z.string(),
    contactId: z.string(),
    pushName: z.string().nullable(),
    type: StatusType,
    text: z.string().nullable(),
    caption: z.string().nullable(),
    backgroundColor: z.string().nullable(),
    font: z.number().int().nullable(),
    timestamp: z.number(),
    /** The file's description (`omitted` when it was not downloaded). */
    media: MediaMetadata.nullable(),
    mediaBytes: z.instanceof(Uint8Array).optional(),
  }),
  z.object({ kind: z.literal('deleted'), statusId: z.string(), contactId: z.string() }),
]);
export type InboundStatus = z.infer<typeof InboundStatus>;

/** A delivery-state change of a message this session sent. */
export const OutgoingStatus = z.object({
  waMessageId: z.string(),
  chatId: z.string(),
  status: z.enum(['sent', 'delivered', 'read', 'failed']),
});
export type OutgoingStatus = z.infer<typeof OutgoingStatus>;

/** A restriction the network put on (or lifted from) the account: deliberate evidence, never a failed probe. */
export const RestrictionNotice = z.object({
  active: z.boolean(),
  /** e.g. `reachout_timelock`. */
  kind: z.string(),
  /** The network's reason code, when it gives one. */
  code: z.string().nullable(),
  /** ISO time the restriction ends, when known. */
  expiresAt: z.string().nullable(),
});
export type RestrictionNotice = z.infer<typeof RestrictionNotice>;

/** A call ringing on the account (engines with the `calls` port); `from` is the caller, in neutral form. */
export const IncomingCall = z.object({
  callId: z.string(),
  from: z.string(),
  video: z.boolean(),
  /** A group call (the caller is a participant). */
  isGroup: z.boolean(),
  /** When it started ringing, epoch seconds. */
  timestamp: z.number().int(),
});
export type IncomingCall = z.infer<typeof IncomingCall>;

/** What changed in a group the account is in (membership, admins, subject, description, settings). */
export const GroupChange = z.object({
  groupId: z.string(),
  /** Who did it (neutral id), when the network tells. */
  actorId: z.string().nullable(),
  kind: z.enum(['join', 'leave', 'update']),
  /** Who joined or left; for an update, who was promoted or demoted (empty otherwise). */
  participantIds: z.array(z.string()),
  changes: GroupChanges.optional(),
  /** Epoch seconds. */
  timestamp: z.number().int(),
});
export type GroupChange = z.infer<typeof GroupChange>;

export const ENGINE_EVENTS = {
  /** A QR to show (the payload to encode), new on each refresh. */
  qr: z.object({ qr: z.string() }),
  /** Credentials reached the server: stored ones at login, or new ones right after a link. */
  credentialsPresented: z.object({}),
  ready: LinkedIdentity,
  disconnected: DisconnectInfo,
  /** A terminal failure (e.g. authentication refused): no reconnect. */
  failed: z.object({ reason: z.string() }),
  restriction: RestrictionNotice,
  /** The account's push name became known or changed (it may arrive after the connection opened). */
  profileChanged: z.object({ pushName: z.string().nullable() }),
  messageStatus: OutgoingStatus,
  /** The engine learned that a contact's LID and phone number are one person (history filters resolve it). */
  identityLinked: z.object({ lid: z.string(), phone: z.string() }),
  callOffered: IncomingCall,
  /**
   * A call stopped ringing: answered on another of the account's devices (`accepted`), declined (`rejected`: by the
   * API, or on another device) or not answered (`missed`: the caller hung up, or it timed out).
   */
  callEnded: IncomingCall.extend({ outcome: z.enum(['accepted', 'rejected', 'missed']) }),
  /** Chats the engine learned of, or changes to them: history sync, the account's app state from any device. */
  chatsChanged: z.object({ changes: z.array(ChatChange) }),
  /** Chats deleted on the account, from any of its devices: their stored messages go too. */
  chatsDeleted: z.object({ chatIds: z.array(z.string()) }),
  /** A chat's messages were cleared on the account: its stored messages go too. */
  chatCleared: z.object({ chatId: z.string() }),
  /** What a subscribed chat's people show changed (online, typing, last seen). */
  presenceUpdated: ChatPresence,
  groupChanged: GroupChange,
} as const;

export type EngineEventName = keyof typeof ENGINE_EVENTS;
export type EngineEventData<K extends EngineEventName> = z.infer<(typeof ENGINE_EVENTS)[K]>;
export type EngineEventMap = { [K in EngineEventName]: EngineEventData<K> };

/** How one engine instance reports to its session runner. */
export interface EngineEmitter {
  emit<K extends EngineEventName>(name: K, data: EngineEventData<K>): void;
  /**
   * Hands over a message that arrived and resolves once it is stored together with its event (rejects when it could
   * not be). The network forgets a message once the device acknowledges it, so an engine that can hold that
   * acknowledgement holds it until this resolves.
   */
  receive(message: InboundMessage): Promise<void>;
  /** Hands over a change of a message (a reaction, edit or revoke) the same way: resolves once it is stored. */
  receiveChange(change: InboundChange): Promise<void>;
  /** Hands over a contact's status update (posted or deleted) the same way: resolves once it is stored. */
  receiveStatus(status: InboundStatus): Promise<void>;
}

/** One handler per event, and where received messages go: what a session runner gives each engine it creates. */
export type EngineEventHandlers = { [K in EngineEventName]: (data: EngineEventData<K>) => void } & {
  receive(message: InboundMessage): Promise<void>;
  receiveChange(change: InboundChange): Promise<void>;
  receiveStatus(status: InboundStatus): Promise<void>;
};

/** The emitter that calls `handlers[name]` for every event and `handlers.receive` for every message. */
export function emitterOf(handlers: EngineEventHandlers): EngineEmitter {
  return {
    emit: (name, data) => (handlers[name] as (payload: typeof data) => void)(data),
    receive: (message) => handlers.receive(message),
    receiveChange: (change) => handlers.receiveChange(change),
    receiveStatus: (status) => handlers.receiveStatus(status),
  };
}

/** An emitter that parses each payload with its schema before passing it on; throws on a malformed one. */
export function checkedEmitter(inner: EngineEmitter): EngineEmitter {
  return {
    emit: (name, data) => inner.emit(name, ENGINE_EVENTS[name].parse(data) as typeof data),
    receive: (message) => inner.receive(InboundMessage.parse(message)),
    receiveChange: (change) => inner.receiveChange(InboundChange.parse(change)),
    receiveStatus: (status) => inner.receiveStatus(InboundStatus.parse(status)),
  };
}
