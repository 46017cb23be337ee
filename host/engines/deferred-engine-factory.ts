/**
 * An engine factory whose library is loaded when the first engine is built, not at boot. The Baileys client pulls in
 * WhatsApp's protocol definitions (a 4.4 MB generated module) and, once loaded, makes every HTTP request of the
 * process measurably dearer (tests/bench `http`); a gateway that runs no session of that engine never pays for it,
 * and boots faster. Its capabilities come from the table, which needs nothing of the library.
 */
import {
  capabilitiesOf,
  type EngineCapability,
  type EngineKind,
} from '#shared/domain/engine-capabilities.js';
import type { EngineFactory, EngineSession, MessagingEngine } from './engine.port.js';
import type { EngineEmitter } from './engine-events.js';

export class DeferredEngineFactory implements EngineFactory {
  readonly capabilities: ReadonlySet<EngineCapability>;
  private loaded: Promise<EngineFactory> | null = null;

  constructor(
    readonly kind: EngineKind,
    private readonly load: () => Promise<EngineFactory>,
    /** Wipes stored credentials while no engine was ever built (nothing of the library is needed for that). */
    private readonly wipeStored: (sessionId: string) => Promise<void>,
  ) {
    this.capabilities = capabilitiesOf(kind);
  }

  async create(session: EngineSession, events: EngineEmitter): Promise<MessagingEngine> {
    this.loaded ??= this.load();
    return (await this.loaded).create(session, events);
  }

  async preload(): Promise<void> {
    this.loaded ??= this.load();
    await this.loaded;
  }

  async wipeCredentials(sessionId: string): Promise<void> {
    if (this.loaded) return (await this.loaded).wipeCredentials(sessionId);
    return this.wipeStored(sessionId);
  }
}
