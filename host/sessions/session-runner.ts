/**
 * Runs one session's engine: turns engine events into status writes, events and audits, reconnects with backoff,
 * and carries out stop, logout (with its teardown fence) and force-kill. Events from a superseded engine instance
 * are ignored (generation check), so a late event can never resurrect a stopped session. Calls, presence and
 * group changes are published with the people they name, by both ids.
 */
import type {
  EngineFactory,
  EngineSession,
  MessagingEngine,
  OptionalPorts,
} from '#host/engines/engine.port.js';
import {
  type DisconnectInfo,
  type EngineEventHandlers,
  emitterOf,
  type LinkedIdentity,
  type RestrictionNotice,
} from '#host/engines/engine-events.js';
import type { OutgoingMessage } from '#host/engines/ports/messaging.port.js';
import type { MessageSink } from '#host/messages/message-sink.js';
import type { AuditRecorder } from '#shared/audit/audit-recorder.js';
import { SYSTEM_CALLER } from '#shared/domain/caller.js';
import type { Session } from '#shared/domain/session.js';
import { SessionStateError } from '#shared/errors/app-error.js';
import type { TeardownFenceStore } from '#shared/ports/session-store.port.js';
import { renderQrDataUrl } from '#shared/qr/render-qr.js';
import { type ConnectSlots, releasingSlot, type SlotRelease } from './connect-slots.js';
import { reportDisconnect } from './disconnect-report.js';
import { destroyOrThrow, stopWithin, unlinkDevice } from './engine-teardown.js';
import { ReconnectStreak, resolveReconnectConfig } from './reconnect-policy.js';
import { applyRestriction, type RestrictionContext } from './restriction.js';
import { reportHandlers, reportingDeps } from './session-reports.js';
import { type SessionEvent, SessionStatusWriter, type StatusWriterDeps } from './status-writer.js';

export interface RunnerDeps extends StatusWriterDeps {
  engines: EngineFactory;
  /** Bounds the sessions connecting at once on this host (none when absent). */
  connectSlots?: ConnectSlots;
  /** Stores and publishes what the engine reports about messages. */
  sink: MessageSink;
  audit: AuditRecorder;
  fences: TeardownFenceStore;
  teardownTimeoutMs: number;
  random?: () => number;
}

export class SessionRunner {
  private engine: MessagingEngine | null = null;
  private generation = 0;
  private reconnectTimer: NodeJS.Timeout | null = null;
  /** Releases the connect slot of the current attempt (held until its engine reports how it went); idempotent. */
  private slot: SlotRelease = () => undefined;
  private currentQr: string | null = null;
  /** The active restriction the network announced, if any. */
  private restriction: RestrictionNotice | null = null;
  /** The engine reported `ready` and has not disconnected since. */
  private connected = false;
  private readonly writer: SessionStatusWriter;
  private readonly streak: ReconnectStreak;
  private readonly restrictionContext: RestrictionContext;

  constructor(
    private readonly deps: RunnerDeps,
    readonly session: EngineSession,
    private readonly onEnded: (runner: SessionRunner) => void,
  ) {
    this.writer = new SessionStatusWriter(deps, session.id);
    this.streak = new ReconnectStreak(resolveReconnectConfig(session.config), deps.random);
    this.restrictionContext = { session, writer: this.writer, audit: deps.audit };
  }

  get qr(): string | null {
    return this.currentQr;
  }

  get hasLiveEngine(): boolean {
    return this.engine !== null;
  }

  /** The engine is connected and authenticated (the session is `ready` on this host). */
  get isReady(): boolean {
    return this.connected && this.engine !== null;
  }

  /** True once the engine reported `ready` and until it disconnects. */
  get isConnected(): boolean {
    return this.connected;
  }

  /** Creates a fresh engine instance and starts connecting (once a connect slot is free). */
  async launch(): Promise<void> {
    this.clearReconnectTimer();
    const generation = ++this.generation;
    this.slot();
    const slot = (await this.deps.connectSlots?.acquire()) ?? (() => undefined);
    // Stopped (or relaunched) while waiting for a slot: this attempt never connects.
    if (generation !== this.generation) return slot();
    this.slot = slot;
    const lost = (reason: string) => this.onDisconnected(generation, { reason, loggedOut: false });
    const emitter = emitterOf(releasingSlot(this.handlersFor(generation), slot));
    const engine = await this.deps.engines.create(this.session, emitter).catch((error: unknown) => {
      lost(`engine could not be loaded${error instanceof Error ? `: ${error.message}` : ''}`);
      return null;
    });
    // Stopped (or relaunched) while the engine library was loading: this engine is never started.
    if (!engine || generation !== this.generation) return;
    this.engine = engine;
    await engine
      .start()
      .catch((error: unknown) => lost(error instanceof Error ? error.message : 'start failed'));
  }

  /** The live engine's port `name`; null without a live engine or when the engine lacks the port. */
  port<P extends keyof OptionalPorts>(name: P): OptionalPorts[P] | null {
    return this.engine?.[name] ?? null;
  }

  /** Sends through the live engine; throws when there is none (the caller marks the message failed). */
  async send(message: OutgoingMessage): Promise<{ timestamp: number }> {
    const engine = this.engine;
    if (!engine) throw new SessionStateError('SESSION_NOT_READY', 'Session has no live connection');
    return engine.send(message);
  }

  /** A start while waiting to reconnect: try now instead of after the backoff. */
  async reconnectNow(): Promise<void> {
    if (this.engine) return;
    await this.launch();
  }

  /** Stops the engine, keeping credentials. A hung stop escalates to forceDestroy after the teardown deadline. */
  async stop(): Promise<Session | null> {
    const engine = this.retire();
    if (engine) await stopWithin(engine, this.deps.teardownTimeoutMs);
    return this.writer.apply('stop', { lastError: null });
  }

  /** Unlinks the device; when the network does not confirm in time, see unlinkDevice (fence, then 502). */
  async logout(): Promise<Session | null> {
    const engine = this.engine;
    if (!engine)
      throw new SessionStateError('SESSION_NOT_STARTED', 'Session has no live connection to log out');
    this.retire();
    return unlinkDevice({ ...this.deps, session: this.session, writer: this.writer }, engine);
  }

  /** Kills the engine at once and tears the session down. */
  async forceKill(): Promise<Session | null> {
    const engine = this.retire();
    if (engine) await destroyOrThrow(engine);
    return this.writer.apply('force_kill', { lastError: null });
  }

  /** Ends the runner without touching the row (gateway shutdown: the session resumes on the next boot). */
  async shutdown(): Promise<void> {
    const engine = this.retire();
    if (engine) await stopWithin(engine, this.deps.teardownTimeoutMs).catch(() => undefined);
  }

  /** Ends the runner ahead of the row's deletion. */
  async discard(): Promise<void> {
    const engine = this.retire();
    await engine?.forceDestroy().catch(() => undefined);
  }

  private retire(): MessagingEngine | null {
    this.generation++;
    this.slot();
    this.connected = false;
    this.clearReconnectTimer();
    this.currentQr = null;
    const engine = this.engine;
    this.engine = null;
    this.onEnded(this);
    return engine;
  }

  private clearReconnectTimer(): void {
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
  }

  /** What the runner does with each event of the engine of `generation`. */
  private handlersFor(generation: number): EngineEventHandlers {
    const live = () => generation === this.generation;
    const reporting = reportingDeps(this.deps, this.writer, this.session.id);
    const engine = () => this.engine;
    return {
      qr: ({ qr }) => live() && void this.onQr(qr).catch(this.logError),
      credentialsPresented: () => {
        if (!live()) return;
        this.currentQr = null;
        void this.writer.apply('credentials_presented').catch(this.logError);
      },
      ready: (identity) => live() && void this.onReady(identity).catch(this.logError),
      disconnected: (info) => this.onDisconnected(generation, info),
      failed: ({ reason }) => {
        if (!live()) return;
        this.retire();
        void this.writer.apply('engine_failed', { lastError: reason }).catch(this.logError);
      },
      restriction: (notice) => {
        if (!live()) return;
        this.restriction = notice.active ? notice : null;
        // Before `ready` it is only remembered: onReady applies it, so it is audited once.
        if (this.connected) void applyRestriction(this.restrictionContext, notice).catch(this.logError);
      },
      profileChanged: ({ pushName }) => {
        if (live()) void this.writer.patch({ pushName }).catch(this.logError);
      },
      // Messages are stored even from a superseded engine: they happened on the network either way. A failure is
      // the engine's to answer too (it leaves the message unacknowledged, for the network to deliver again).
      receive: (message) => this.deps.sink.received(this.session.id, message).catch(this.logAndRethrow),
      receiveChange: (change) =>
        this.deps.sink.receivedChange(this.session.id, change).catch(this.logAndRethrow),
      identityLinked: (alias) => void this.deps.sink.linked(this.session.id, alias).catch(this.logError),
      messageStatus: (update) => void this.deps.sink.status(this.session.id, update).catch(this.logError),
      ...this.deps.sink.chats.handlers(this.session.id),
      ...this.deps.sink.statuses.handlers(this.session.id),
      ...reportHandlers(this.session, engine, reporting, live, this.logError),
    };
  }

  private readonly logAndRethrow = (error: unknown): never => {
    this.logError(error);
    throw error;
  };

  /** Work started from an engine callback or a timer has no caller to answer: its failure is logged. */
  private readonly logError = (error: unknown) =>
    this.deps.logger.error({ err: error, sessionId: this.session.id }, 'session runner work failed');

  private async onQr(qr: string): Promise<void> {
    this.currentQr = qr;
    const image = await renderQrDataUrl(qr);
    // The server answered: a connection failure noted before (lastError) is over.
    const row = await this.writer.apply('qr_generated', { lastError: null }, [
      { event: 'session.qr', data: { sessionId: this.session.id, qr: image } },
    ]);
    if (!row) await this.endOrphaned();
  }

  /** The row is gone while an engine runs (a delete raced this start, before a lease showed an owner to stop). */
  private async endOrphaned(): Promise<void> {
    this.deps.logger.warn({ sessionId: this.session.id }, 'session deleted while its engine ran; ending it');
    await this.discard();
    await this.deps.engines.wipeCredentials(this.session.id);
  }

  private async onReady(identity: LinkedIdentity): Promise<void> {
    this.streak.reset();
    this.currentQr = null;
    const now = this.deps.clock.now().toISOString();
    const { phone, pushName } = identity;
    const row = await this.writer.apply(
      'auth_succeeded',
      { phone, pushName, connectedAt: now, lastActiveAt: now, lastError: null },
      [{ event: 'session.authenticated', data: { sessionId: this.session.id, phone, pushName } }],
    );
    if (!row) return this.endOrphaned();
    this.connected = true;
    // A restriction announced while connecting applies as soon as the session is ready.
    if (this.restriction) await applyRestriction(this.restrictionContext, this.restriction);
    void this.deps.audit.record(SYSTEM_CALLER, {
      action: 'session_connected',
      sessionId: this.session.id,
      sessionName: this.session.name,
    });
  }

  private onDisconnected(generation: number, info: DisconnectInfo): void {
    if (generation !== this.generation) return;
    this.slot();
    this.engine = null;
    const wasUp = this.connected;
    this.connected = false;
    // The network announces an active restriction again at the next login; one lifted meanwhile is not announced.
    this.restriction = null;
    this.currentQr = null;
    void this.handleDisconnect(info, wasUp).catch(this.logError);
  }

  private async handleDisconnect(info: DisconnectInfo, wasUp: boolean): Promise<void> {
    const { id } = this.session;
    const disconnected: SessionEvent = {
      event: 'session.disconnected',
      data: { sessionId: id, reason: info.reason },
    };
    if (info.loggedOut) {
      this.retire();
      await this.deps.engines.wipeCredentials(id);
      reportDisconnect(this.deps, this.session, { reason: info.reason, nextDelayMs: null, audit: true });
      await this.writer.apply('connection_lost', { phone: null, lastError: info.reason }, [disconnected]);
      return;
    }
    const { decision, attempt, lastError, audited } = this.streak.lost(info.reason, wasUp);
    const nextDelayMs = decision.action === 'retry' ? decision.delayMs : null;
    reportDisconnect(this.deps, this.session, { reason: info.reason, attempt, nextDelayMs, audit: audited });
    const loop: SessionEvent[] =
      decision.action === 'retry' && decision.reportLoop
        ? [
            {
              event: 'session.reconnect_loop',
              data: { sessionId: id, attempts: decision.attempt, nextDelayMs: decision.delayMs },
            },
          ]
        : [];
    await this.writer.apply('connection_lost', { lastError }, [disconnected, ...loop]);
    if (decision.action === 'give_up') {
      this.retire();
      await this.writer.apply('reconnect_exhausted', { lastError });
      return;
    }
    const generation = this.generation;
    this.reconnectTimer = setTimeout(() => {
      if (generation !== this.generation) return;
      void this.writer
        .apply('reconnect')
        .then(() => this.launch())
        .catch(this.logError);
    }, decision.delayMs);
    this.reconnectTimer.unref?.();
  }
}
