/**
 * An engine factory whose library is loaded when the first engine is built, not at boot. The Baileys client pulls in
 * WhatsApp's protocol definitions (a 4.4 MB generated module) and, once loaded, makes every HTTP request of the
 * process measurably dearer (tests/bench `http`); a gateway that runs no session of that engine never pays for it,
 * and boots faster.
 */
import type {
  EngineCapability,
  EngineFactory,
  EngineKind,
  EngineListener,
  EngineSession,
  MessagingEngine,
} from './engine.port.js';

export class DeferredEngineFactory implements EngineFactory {
  private loaded: Promise<EngineFactory> | null = null;

  constructor(
    readonly kind: EngineKind,
    readonly capabilities: ReadonlySet<EngineCapability>,
    private readonly load: () => Promise<EngineFactory>,
    /** Wipes stored credentials while no engine was ever built (nothing of the library is needed for that). */
    private readonly wipeStored: (sessionId: string) => Promise<void>,
  ) {}

  async create(session: EngineSession, listener: EngineListener): Promise<MessagingEngine> {
    this.loaded ??= this.load();
    return (await this.loaded).create(session, listener);
  }

  async wipeCredentials(sessionId: string): Promise<void> {
    if (this.loaded) return (await this.loaded).wipeCredentials(sessionId);
    return this.wipeStored(sessionId);
  }
}
