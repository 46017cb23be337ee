/** What use cases may depend on: ports and core services only, never a transport. */
import type { AuditRecorder } from '#shared/audit/audit-recorder.js';
import type { EngineKind } from '#shared/domain/engine-capabilities.js';
import type { Clock } from '#shared/ports/clock.port.js';
import type { HostGateway } from '#shared/ports/host-gateway.port.js';
import type { Logger } from '#shared/ports/logger.port.js';
import type { MediaStorage } from '#shared/ports/media-storage.port.js';
import type { MessageOutcomes } from '#shared/ports/message-outcomes.port.js';
import type { DataStore, MainStore } from '#shared/ports/stores.port.js';
import type { CommandQueue } from '#shared/queue/command-queue.js';

export interface CoreDeps {
  clock: Clock;
  logger: Logger;
  main: MainStore;
  data: DataStore;
  /** The media archive (files of messages, by their rows' mediaPath). */
  media: MediaStorage;
  commands: CommandQueue;
  host: HostGateway;
  /** Tells a waiting send request when its message settled. */
  outcomes: MessageOutcomes;
  audit: AuditRecorder;
  /** The configured engine kind (`ENGINE`): what use cases check capabilities against, without asking a host. */
  engine: EngineKind;
  /**
   * The most sessions that may run at once, when one host runs them all (MAX_CONCURRENT_SESSIONS of a single node):
   * a start beyond it is refused. 0: no limit here (none set, or several nodes, each of which guards its own).
   */
  sessionLimit: number;
}
