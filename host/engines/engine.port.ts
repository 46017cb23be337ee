/**
 * The engine port: what the host needs from a WhatsApp client library, split into sub-ports (host/engines/ports/).
 * Connection and messaging are core; each optional port is a property an engine has exactly when its kind has a
 * capability of that port in the capability table (shared/domain/engine-capabilities.ts; a test holds every
 * factory to it). Engines report through an EngineEmitter (engine-events.ts); the session runner owns status,
 * reconnects and persistence, so an engine never writes the store itself.
 */
import type { EngineCapability, EngineKind, OptionalEnginePort } from '#shared/domain/engine-capabilities.js';
import type { OperationPort, PortOperations } from '#shared/domain/engine-operations/engine-operations.js';
import type { SessionConfig } from '#shared/domain/session.js';
import type { EngineEmitter } from './engine-events.js';
import type { EngineCalls } from './ports/calls.port.js';
import type { EngineConnection } from './ports/connection.port.js';
import type { EngineMessaging } from './ports/messaging.port.js';
import type { EnginePairing } from './ports/pairing.port.js';
import type { EngineStatus } from './ports/status.port.js';

export interface EngineSession {
  id: string;
  name: string;
  config: SessionConfig;
  /**
   * The proxy the engine connects through (its WhatsApp connection and media transfers), as stored; null: direct.
   * It carries credentials: never log it or put it in an error (name the proxy by host:port instead).
   */
  proxyUrl: string | null;
}

/**
 * The ports made of engine operation rows (shared/domain/engine-operations/): each has one method per row of its
 * capabilities, typed by the row's input and result, so a new row is a method every engine with the port must add.
 */
type OperationPorts = { readonly [P in OperationPort]?: PortOperations<P> };

/**
 * The optional ports with an implementation, by their name in the table: the operation ports, and the older
 * hand-written ones (pairing: the QR's alternative, part of linking; calls: what the runner does on its own;
 * status: a post's file is archived before the host is asked, as a media send's is).
 */
export interface OptionalPorts extends OperationPorts {
  readonly pairing?: EnginePairing;
  readonly calls?: EngineCalls;
  /** Status updates: posting the account's own (a contact's arrive through the emitter). */
  readonly status?: EngineStatus;
}

/** Every optional port here is one the table knows. */
type Known<T extends OptionalEnginePort> = T;
export type ImplementedPort = Known<keyof OptionalPorts>;

/** One connection attempt's client. A new instance is created for every (re)connect. */
export interface MessagingEngine extends EngineConnection, EngineMessaging, OptionalPorts {}

/** Builds engines of one kind and manages their stored credentials. */
export interface EngineFactory {
  readonly kind: EngineKind;
  /** The kind's row of the capability table (`capabilitiesOf(kind)`). */
  readonly capabilities: ReadonlySet<EngineCapability>;
  /** Builds the engine of one connection attempt (an engine library may be loaded on first use). */
  create(session: EngineSession, events: EngineEmitter): Promise<MessagingEngine>;
  /** Deletes a session's stored credentials (delete, logout). */
  wipeCredentials(sessionId: string): Promise<void>;
  /**
   * Loads the engine library now, where it is loaded on first use: a restart that resumes sessions loads it before
   * the API answers, so its load (hundreds of milliseconds of module evaluation) does not stall answers later.
   */
  preload?(): Promise<void>;
}
