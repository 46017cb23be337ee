import type { EngineCapability } from '#host/engines/engine.port.js';

/** What the Baileys engine can do beyond connecting and sending (kept apart so declaring it loads no Baileys). */
export const BAILEYS_CAPABILITIES: ReadonlySet<EngineCapability> = new Set<EngineCapability>([
  'pairing_code',
  'presence_subscribe',
  'labels_edit',
  'reject_calls',
]);
