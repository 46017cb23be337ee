/**
 * Where contacts' status updates land: a post is stored with its file archived and its `status.received` event in
 * the same transaction (once: a post the network delivers twice is dropped by the store's unique network id), and
 * its acknowledgement waits for that, as a message's does; a post deleted by its poster goes with its file. The
 * account's own posts are stored by the host's status operations; what expired is swept by sweepExpiredStatuses.
 */
import type { EngineEventHandlers, InboundStatus } from '#host/engines/engine-events.js';
import type { EventRecorder } from '#host/events/durable-events.js';
import type { PersonLookup } from '#shared/domain/person-ids.js';
import { newRecordId } from '#shared/domain/record-id.js';
import { STATUS_LIFETIME_MS, type StatusRecord, statusReceivedData } from '#shared/domain/status-update.js';
import { MediaTooLargeError } from '#shared/errors/app-error.js';
import type { Clock } from '#shared/ports/clock.port.js';
import type { OutboxEntry } from '#shared/ports/event-outbox.port.js';
import type { Logger } from '#shared/ports/logger.port.js';
import type { MediaStorage } from '#shared/ports/media-storage.port.js';
import type { StatusStore } from '#shared/ports/status-store.port.js';
import { dropStatusFile } from '#shared/use-cases/maintenance/sweep-expired-statuses.js';

/** Network ids the archive takes as keys as they are; others are archived under a new id. */
const SAFE_KEY = /^[A-Za-z0-9_-]{1,120}$/;

type Posted = Extract<InboundStatus, { kind: 'posted' }>;

export interface StatusSinkDeps {
  statuses: StatusStore;
  media: MediaStorage;
  events: EventRecorder;
  /** Both ids of the people a status names (the identity store's pairings). */
  people: (sessionId: string, ids: readonly string[]) => Promise<PersonLookup>;
  clock: Clock;
  logger: Logger;
}

export class StatusSink {
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(private readonly deps: StatusSinkDeps) {}

  /** The session runner's handler of an engine's status reports (a failure rejects: the engine holds the ack). */
  handlers(sessionId: string): Pick<EngineEventHandlers, 'receiveStatus'> {
    return { receiveStatus: (status) => this.received(sessionId, status) };
  }

  /** Stores (or removes) a contact's status; resolves once written. */
  received(sessionId: string, status: InboundStatus): Promise<void> {
    const work = status.kind === 'posted' ? this.store(sessionId, status) : this.remove(sessionId, status);
    this.inFlight.add(work);
    const settled = () => void this.inFlight.delete(work);
    work.then(settled, settled);
    return work;
  }

  /** Resolves once everything reported so far is stored (a shutdown waits for it before the stores close). */
  async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private async store(sessionId: string, inbound: Posted): Promise<void> {
    const postedAt = inbound.timestamp * 1000;
    // A post that expired before it reached us (an old offline backlog) is acknowledged and not kept.
    if (postedAt + STATUS_LIFETIME_MS <= this.deps.clock.now().getTime()) return;
    const file = await this.archive(sessionId, inbound);
    const status: StatusRecord = {
      sessionId,
      statusId: inbound.statusId,
      contactId: inbound.contactId,
      pushName: inbound.pushName,
      fromMe: false,
      type: inbound.type,
      text: inbound.text,
      caption: inbound.caption,
      backgroundColor: inbound.backgroundColor,
      font: inbound.font,
      media: file.media,
      mediaPath: file.path,
      recipients: [],
      postedAt,
      expiresAt: postedAt + STATUS_LIFETIME_MS,
    };
    const people = await this.deps.people(sessionId, [status.contactId]);
    let entry: OutboxEntry | undefined;
    const inserted = await this.deps.statuses.insert(status, (stored) => {
      entry = this.deps.events.entry({
        event: 'status.received',
        sessionId,
        occurredAt: this.deps.clock.now().toISOString(),
        data: statusReceivedData(stored, people(stored.contactId)),
      });
      return entry;
    });
    if (inserted && entry) await this.announce(entry);
  }

  /**
   * Archives a post's file before its row is stored; one over the archive's cap is described as omitted. A storage
   * failure rejects, leaving the post unacknowledged for the network to deliver again.
   */
  private async archive(
    sessionId: string,
    inbound: Posted,
  ): Promise<{ media: Posted['media']; path: string | null }> {
    const { media, mediaBytes } = inbound;
    if (!media || !mediaBytes) return { media, path: null };
    try {
      const stored = await this.deps.media.put({
        sessionId,
        messageId: `status_${SAFE_KEY.test(inbound.statusId) ? inbound.statusId : newRecordId()}`,
        mimetype: media.mimetype,
        data: mediaBytes,
      });
      return { media, path: stored.path };
    } catch (error) {
      if (!(error instanceof MediaTooLargeError)) throw error;
      return { media: { ...media, omitted: 'too_large' }, path: null };
    }
  }

  /** The poster deleted it for everyone: it goes, with its file (only theirs: another's id is not theirs to drop). */
  private async remove(
    sessionId: string,
    deleted: Extract<InboundStatus, { kind: 'deleted' }>,
  ): Promise<void> {
    const status = await this.deps.statuses.find(
      sessionId,
      deleted.statusId,
      this.deps.clock.now().getTime(),
    );
    if (!status || status.fromMe || status.contactId !== deleted.contactId) return;
    const removed = await this.deps.statuses.delete(sessionId, deleted.statusId);
    if (removed) await dropStatusFile(this.deps, removed);
  }

  private async announce(entry: OutboxEntry): Promise<void> {
    try {
      await this.deps.events.stored(entry);
    } catch (error) {
      this.deps.logger.error({ err: error, event: entry.event.event }, 'event announce failed');
    }
  }
}
