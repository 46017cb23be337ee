/**
 * The one table of engine capabilities: what each engine kind can do beyond connecting and sending. Engines declare
 * their row (a test checks each engine factory against it), use cases refuse an operation whose capability the
 * configured engine lacks with 501 ENGINE_UNSUPPORTED before any host or engine is called, and the OpenAPI document
 * describes each 501 from it. Functions read it by the configured `ENGINE`, so they decide without asking a host.
 */

/** The engines a deployment can run (DESIGN §3): browser-free Baileys, browser-based whatsapp-web.js, and the test one. */
export const ENGINE_KINDS = ['baileys', 'webjs', 'test'] as const;
export type EngineKind = (typeof ENGINE_KINDS)[number];

/** The engine port's capability sub-ports; every capability belongs to one. */
export const ENGINE_PORTS = [
  'connection',
  'messaging',
  'chats',
  'contacts',
  'groups',
  'labels',
  'presence',
  'calls',
  'status',
] as const;
export type EnginePort = (typeof ENGINE_PORTS)[number];

interface CapabilityRow {
  port: EnginePort;
  /** What it lets a client do, as the API reference and 501 answers say it. */
  summary: string;
  /** The engine kinds that have it. */
  engines: readonly EngineKind[];
}

const ALL: readonly EngineKind[] = ENGINE_KINDS;

/**
 * Optional abilities, named by what a client asks for. Connecting, stopping, logging out and sending every kind of
 * message are core: every engine has them, so they are not listed. The spec fixes the differences known today:
 * presence subscription is refused on the browser-based engine; label reads work only there and label edits only
 * on the browser-free one; tagging chats works on both.
 */
export const ENGINE_CAPABILITIES = {
  pairing_code: {
    port: 'connection',
    summary: 'link a device with an 8-character pairing code',
    engines: ALL,
  },
  presence_subscribe: {
    port: 'presence',
    summary: "subscribe to a chat's presence (online, typing) updates",
    engines: ['baileys', 'test'],
  },
  labels_read: { port: 'labels', summary: 'read labels and the chats they tag', engines: ['webjs', 'test'] },
  labels_edit: { port: 'labels', summary: 'create, change and delete labels', engines: ['baileys', 'test'] },
  labels_tag: { port: 'labels', summary: 'add a label to a chat or remove it', engines: ALL },
  reject_calls: { port: 'calls', summary: 'reject an incoming call', engines: ALL },
  contacts_check: { port: 'contacts', summary: 'check whether a number is on WhatsApp', engines: ALL },
} as const satisfies Record<string, CapabilityRow>;

export type EngineCapability = keyof typeof ENGINE_CAPABILITIES;
export const ENGINE_CAPABILITY_NAMES = Object.keys(ENGINE_CAPABILITIES) as EngineCapability[];

/** True when engines of `kind` have `capability`. */
export function engineHas(kind: EngineKind, capability: EngineCapability): boolean {
  const row: CapabilityRow = ENGINE_CAPABILITIES[capability];
  return row.engines.includes(kind);
}

/** Every capability engines of `kind` have: the row an engine factory declares. */
export function capabilitiesOf(kind: EngineKind): ReadonlySet<EngineCapability> {
  return new Set(ENGINE_CAPABILITY_NAMES.filter((capability) => engineHas(kind, capability)));
}

/** The engine kinds without `capability` (what a 501 description names). */
export function enginesLacking(capability: EngineCapability): EngineKind[] {
  return ENGINE_KINDS.filter((kind) => !engineHas(kind, capability));
}
