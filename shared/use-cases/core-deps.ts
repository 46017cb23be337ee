/** What use cases may depend on: ports and core services only, never a transport. */
import type { AuditRecorder } from '../audit/audit-recorder.js';
import type { Clock } from '../ports/clock.port.js';
import type { HostGateway } from '../ports/host-gateway.port.js';
import type { Logger } from '../ports/logger.port.js';
import type { DataStore, MainStore } from '../ports/stores.port.js';
import type { CommandQueue } from '../queue/command-queue.js';

export interface CoreDeps {
  clock: Clock;
  logger: Logger;
  main: MainStore;
  data: DataStore;
  commands: CommandQueue;
  host: HostGateway;
  audit: AuditRecorder;
}
