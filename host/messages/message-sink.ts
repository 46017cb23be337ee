/**
 * Where engine message callbacks land: inbound messages are stored (once: a re-fired message is dropped by the store's
 * unique network id) and published as `message.received`; acks advance the status forward only (`message.ack`).
 */
import type { ChatSink } from '#host/chats/chat-sink.js';
import type { InboundChange, InboundMessage, OutgoingStatus } from '#host/engines/engine-events.js';
import type { EventRecorder } from '#host/events/durable-events.js';
import type { StatusSink } from '#host/statuses/status-sink.js';
import { type GatewayEvent, LEGACY_ACK, messageEventData } from '#shared/domain/events.js';
import type { Message, MessageStatus } from '#shared/domain/message.js';
import type { PersonLookup } from '#shared/domain/person-ids.js';
import { newRecordId } from '#shared/domain/record-id.js';
import { MediaTooLargeError } from '#shared/errors/app-error.js';
import type { Clock } from '#shared/ports/clock.port.js';
import type { OutboxEntry } from '#shared/ports/event-outbox.port.js';
import type { IdentityAlias, IdentityStore } from '#shared/ports/identity-store.port.js';
import type { Logger } from '#shared/ports/logger.port.js';
import type { MediaStorage, StoredMedia } from '#shared/ports/media-storage.port.js';
import type { ContentChange, MessageStore, StatusChange } from '#shared/ports/message-store.port.js';
import { lookUpPeople } from '#shared/use-cases/people/look-up-people.js';
import { type ChangeReport, changeEvent } from './change-events.js';
import { metadataOf } from './inbound-metadata.js';

/** Network ids the archive takes as keys as they are; others are archived under the row's id. */
const SAFE_KEY = /^[A-Za-z0-9_-]{1,128}$/;

/** Remembered pairings before the memo starts over (a bound on memory, not on correctness). */
const KNOWN_ALIASES_MAX = 10_000;

export interface MessageSinkDeps {
  messages: MessageStore;
  identities: IdentityStore;
  /** The media archive: a revoke removes the file of the message it clears. */
  media: MediaStorage;
  events: EventRecorder;
  /** The chat list: every message stored here moves its chat's last message and activity. */
  chats: ChatSink;
  /** Contacts' status updates. */
  statuses: StatusSink;
  clock: Clock;
  logger: Logger;
}

export class MessageSink {
  /** The last ack in flight per message (session id + network id); gone once it settles. */
  private readonly ackTails = new Map<string, Promise<void>>();
  /** Inbound messages and acks not yet stored and published. */
  private readonly inFlight = new Set<Promise<unknown>>();
  /** Pairings this process stored (session + LID → phone): every message carries one, most are repeats. */
  private readonly knownAliases = new Map<string, string>();
  /** Pairings being written, by session + each of their ids: events naming one wait for the write. */
  private readonly linking = new Map<string, Promise<void>>();

  constructor(private readonly deps: MessageSinkDeps) {}

  /** Resolves once all reported is stored and published (shutdown: the network will not send those again). */
  async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
    await Promise.all([this.deps.chats.drain(), this.deps.statuses.drain()]);
  }

  /** Where the chat reports of engines and sends go (the chat list), and contacts' status updates. */
  get chats(): ChatSink {
    return this.deps.chats;
  }
  get statuses(): StatusSink {
    return this.deps.statuses;
  }

  received(sessionId: string, inbound: InboundMessage): Promise<void> {
    return this.track(this.store(sessionId, inbound));
  }

  private track<T>(work: Promise<T>): Promise<T> {
    const tracked: Promise<unknown> = work;
    this.inFlight.add(tracked);
    const settled = () => void this.inFlight.delete(tracked);
    work.then(settled, settled);
    return work;
  }

  private async store(sessionId: string, inbound: InboundMessage): Promise<void> {
    const id = newRecordId();
    const file = await this.archive(sessionId, id, inbound);
    const message: Message = {
      id,
      sessionId,
      waMessageId: inbound.waMessageId,
      chatId: inbound.chatId,
      chatName: null,
      author: inbound.author,
      from: inbound.from,
      to: inbound.to,
      body: inbound.body,
      type: inbound.type,
      direction: 'incoming',
      timestamp: inbound.timestamp,
      metadata: metadataOf(file.inbound),
      status: 'delivered',
      mediaPath: file.stored?.path ?? null,
      mediaMimetype: file.stored?.mimetype ?? null,
      createdAt: this.deps.clock.now().toISOString(),
    };
    const people = await this.people(sessionId, [message.author ?? message.from]);
    let entry: OutboxEntry | undefined;
    const inserted = await this.deps.messages.insert(message, (stored) => {
      entry = this.deps.events.entry({
        event: 'message.received',
        sessionId,
        occurredAt: stored.createdAt,
        data: messageEventData(stored, people),
      });
      return entry;
    });
    // The chat list is derived (not awaited): the network's acknowledgement must not wait for it.
    if (inserted) void this.deps.chats.messageStored(message);
    if (inserted && entry) await this.announce(entry);
  }

  /**
   * Archives the file of a media message before its row is stored, under its network id (so a message the network
   * delivers twice overwrites its own file instead of leaving a second one). A file over the archive's cap is
   * described as omitted; a storage failure rejects, leaving the message unacknowledged for the network to resend.
   */
  private async archive(
    sessionId: string,
    id: string,
    inbound: InboundMessage,
  ): Promise<{ inbound: InboundMessage; stored: StoredMedia | null }> {
    const media = inbound.metadata?.media;
    if (!inbound.mediaBytes || !media) return { inbound, stored: null };
    try {
      const stored = await this.deps.media.put({
        sessionId,
        messageId: SAFE_KEY.test(inbound.waMessageId) ? inbound.waMessageId : id,
        mimetype: media.mimetype,
        data: inbound.mediaBytes,
      });
      return { inbound, stored };
    } catch (error) {
      if (!(error instanceof MediaTooLargeError)) throw error;
      const omitted = { ...media, omitted: 'too_large' as const };
      return { inbound: { ...inbound, metadata: { ...inbound.metadata, media: omitted } }, stored: null };
    }
  }

  /**
   * Applies a reaction, edit or revoke to the message it points at and publishes it (`message.reaction`,
   * `message.edited`, `message.revoked`) in the same transaction. A repeat changes nothing and publishes nothing; a
   * change of a message never stored here (sent before the device was linked) is dropped.
   */
  changed(sessionId: string, report: ChangeReport): Promise<ContentChange> {
    return this.track(this.applyChange(sessionId, report));
  }

  /** Records that a contact's LID and phone number are one person; a pairing already known writes nothing. */
  linked(sessionId: string, alias: IdentityAlias): Promise<void> {
    const key = `${sessionId}\u0000${alias.lid}`;
    if (this.knownAliases.get(key) === alias.phone) return Promise.resolve();
    const written = this.deps.identities.link(sessionId, alias).then(() => {
      if (this.knownAliases.size >= KNOWN_ALIASES_MAX) this.knownAliases.clear();
      this.knownAliases.set(key, alias.phone);
    });
    // Events built meanwhile wait for it (see `people`); a failed write leaves them with what the store has.
    const settled = written.catch(() => undefined);
    const keys = [key, `${sessionId}\u0000${alias.phone}`];
    for (const pending of keys) this.linking.set(pending, settled);
    void settled.then(() => {
      for (const pending of keys) if (this.linking.get(pending) === settled) this.linking.delete(pending);
    });
    return this.track(written);
  }

  /**
   * Both ids of the people `ids` name, for the events of this host (shared/domain/person-ids.ts). The pairings the
   * engine reported so far are in the identity store, or on their way there: the message that taught a pairing is
   * handed over after it, and `linked` keeps it until written.
   */
  async people(sessionId: string, ids: readonly (string | null)[]): Promise<PersonLookup> {
    await Promise.all(ids.map((id) => (id ? this.linking.get(`${sessionId}\u0000${id}`) : undefined)));
    return lookUpPeople(this.deps.identities, sessionId, ids);
  }

  /** A contact's change of a message, as an engine reports it (see `changed`). */
  async receivedChange(sessionId: string, inbound: InboundChange): Promise<void> {
    const { targetId, chatId, senderId, timestamp, change } = inbound;
    await this.changed(sessionId, {
      targetId,
      senderId,
      fromMe: false,
      change: { ...change, chatId, senderId, timestamp },
    });
  }

  private async applyChange(sessionId: string, report: ChangeReport): Promise<ContentChange> {
    // Who made the change: also the writer of the message an edit or a revoke changes (only they can).
    const people = await this.people(sessionId, [report.senderId]);
    let entry: OutboxEntry | null = null;
    const change = await this.deps.messages.applyChange(
      sessionId,
      report.targetId,
      report.change,
      ({ message }) => {
        entry = this.deps.events.entry(changeEvent(sessionId, message, report, people));
        return entry;
      },
    );
    if (entry) await this.announce(entry);
    if (change.outcome === 'updated')
      await this.dropReleasedMedia(sessionId, change.previous, change.message);
    return change;
  }

  /**
   * Deletes the archived file a change took off its row (a revoke: what was sent is gone for everyone). After the row
   * is written, so a failure leaves at worst an orphaned file, never a row pointing at nothing; it is logged.
   */
  private async dropReleasedMedia(sessionId: string, previous: Message, message: Message): Promise<void> {
    if (!previous.mediaPath || previous.mediaPath === message.mediaPath) return;
    try {
      await this.deps.media.delete(previous.mediaPath);
    } catch (error) {
      this.deps.logger.warn({ err: error, sessionId, messageId: message.id }, 'revoked media not deleted');
    }
  }

  /**
   * Holds back the acks of a message this host is sending until `release` is called, once the send's own outcome is
   * written: the network's delivery receipt can arrive before that write, and its `message.ack` must not be published
   * before the message's `message.sent`. Acks that arrive meanwhile wait in the message's chain (see `status`).
   */
  holdAcks(sessionId: string, waMessageId: string): () => void {
    const key = `${sessionId}\u0000${waMessageId}`;
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.chain(
      key,
      (this.ackTails.get(key) ?? Promise.resolve()).then(() => held),
    );
    return release;
  }

  /** Makes `tail` the last link of a message's ack chain; the chain is forgotten once its last link settles. */
  private chain(key: string, tail: Promise<void>): void {
    this.ackTails.set(key, tail);
    void tail.then(() => {
      if (this.ackTails.get(key) === tail) this.ackTails.delete(key);
    });
  }

  /**
   * Acks of one message are applied in the order the engine reported them. With a store that answers asynchronously
   * (DynamoDB), two acks fired back to back (read, then a late delivered) would otherwise race: the stale one could
   * land first and be published as a change of its own.
   */
  status(sessionId: string, update: OutgoingStatus): Promise<void> {
    const key = `${sessionId}\u0000${update.waMessageId}`;
    const applied = (this.ackTails.get(key) ?? Promise.resolve()).then(() =>
      this.applyStatus(sessionId, update),
    );
    // One failed ack must not hold back the next: the chain goes on from its settlement, whatever it was.
    const tail = applied.then(
      () => undefined,
      () => undefined,
    );
    this.chain(key, tail);
    return this.track(applied);
  }

  private async applyStatus(sessionId: string, update: OutgoingStatus): Promise<void> {
    const people = await this.people(sessionId, [update.chatId]);
    const { entry } = await this.advanceWithEvent(
      sessionId,
      update.waMessageId,
      update.status,
      undefined,
      (c) =>
        c.outcome !== 'updated'
          ? null
          : {
              event: 'message.ack',
              sessionId,
              occurredAt: this.deps.clock.now().toISOString(),
              data: {
                id: c.message.id,
                messageId: update.waMessageId,
                chatId: c.message.chatId,
                status: update.status,
                ack: LEGACY_ACK[update.status],
                recipient: people(c.message.chatId),
              },
            },
    );
    if (entry) await this.announce(entry);
  }

  /**
   * Advances a status and stores the event `eventOf` derives from the change in the same transaction; answers
   * the change and the stored entry (to announce once the caller is ready), if any.
   */
  async advanceWithEvent(
    sessionId: string,
    waMessageId: string,
    status: MessageStatus,
    timestamp: number | undefined,
    eventOf: (change: { outcome: 'updated' | 'unchanged'; message: Message }) => GatewayEvent | null,
  ): Promise<{ change: StatusChange; entry: OutboxEntry | null }> {
    let entry: OutboxEntry | null = null;
    const change = await this.deps.messages.advanceStatus(sessionId, waMessageId, status, timestamp, (c) => {
      const event = eventOf(c);
      entry = event ? this.deps.events.entry(event) : null;
      return entry;
    });
    return { change, entry };
  }

  /** Hands a stored entry to the bus and the relay; a failure there is logged, never thrown at the engine. */
  async announce(entry: OutboxEntry): Promise<void> {
    try {
      await this.deps.events.stored(entry);
    } catch (error) {
      this.deps.logger.error({ err: error, event: entry.event.event }, 'event announce failed');
    }
  }
}
