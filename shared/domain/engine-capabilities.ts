/**
 * The one table of engine capabilities: what each engine kind can do beyond connecting and sending. Engine
 * factories declare their row (`capabilitiesOf`; a test checks that their engines expose exactly the matching
 * ports), use cases refuse an operation whose capability the configured engine lacks with 501 ENGINE_UNSUPPORTED
 * before any host or engine is called (shared/use-cases/engine/require-capability.ts), routes name the capability
 * they need and the OpenAPI document describes each 501 from it. Functions read it by the configured `ENGINE`, so
 * they decide without asking a host.
 */

/**
 * The engines a deployment can run (DESIGN §3): browser-free Baileys, browser-based whatsapp-web.js, and two of the
 * deterministic in-process test engine. `test` has every port the test engine implements; `test-core` is the same
 * engine with the core ports alone (connecting and sending), so it lacks every capability, present and future: a
 * gateway that runs it answers 501 to every route that declares one, which is how the API tests reach each 501.
 */
export const ENGINE_KINDS = ['baileys', 'webjs', 'test', 'test-core'] as const;
export type EngineKind = (typeof ENGINE_KINDS)[number];
/** The kinds a capability row may name: all but `test-core`, which by definition has none (see above). */
type CapableKind = Exclude<EngineKind, 'test-core'>;

/**
 * The engine port's sub-ports. `connection` and `messaging` are core (every engine has them); each of the others
 * is optional and exists on an engine exactly when its kind has one of the port's capabilities.
 */
export const ENGINE_PORTS = [
  'connection',
  'messaging',
  'pairing',
  'calls',
  'chats',
  'contacts',
  'groups',
  'labels',
  'presence',
  'status',
] as const;
export type EnginePort = (typeof ENGINE_PORTS)[number];
export type OptionalEnginePort = Exclude<EnginePort, 'connection' | 'messaging'>;

interface CapabilityRow {
  port: OptionalEnginePort;
  /** What it lets a client do, completing "the … engine cannot …" (501 answers and the API reference say it). */
  summary: string;
  /** The engine kinds whose engine implements it today: the only column that decides anything. */
  engines: readonly CapableKind[];
  /**
   * Kinds the spec says will have it once their implementation lands (never one of `engines`). Documentation only:
   * until a kind moves to `engines` its requests answer 501.
   */
  planned: readonly CapableKind[];
}

/**
 * Optional abilities, named by what a client asks for. Connecting, stopping, logging out and sending are core:
 * every engine has them, so they are not listed. The rows without engines carry the differences the spec fixes
 * (presence subscription is refused on the browser-based engine; label reads work only there and label edits only
 * on the browser-free one; tagging chats works on both), so the feature that implements one edits its row.
 */
export const ENGINE_CAPABILITIES = {
  pairing_code: {
    port: 'pairing',
    summary: 'link a device with an 8-character pairing code',
    engines: ['baileys', 'test'],
    planned: ['webjs'],
  },
  reject_calls: {
    port: 'calls',
    summary: 'reject incoming calls (session config autoRejectCalls)',
    engines: ['baileys', 'test'],
    planned: ['webjs'],
  },
  chats_list: {
    port: 'chats',
    summary: 'list chats with their last message, unread count and state (fed by the engine)',
    engines: ['baileys', 'test'],
    planned: ['webjs'],
  },
  chats_manage: {
    port: 'chats',
    summary: 'mark chats read or unread, archive, mute, pin, delete or clear them, and show typing',
    engines: ['baileys', 'test'],
    planned: ['webjs'],
  },
  groups_read: {
    port: 'groups',
    summary: 'list groups and read their members, settings, invite links and join requests',
    engines: ['baileys', 'test'],
    planned: ['webjs'],
  },
  groups_manage: {
    port: 'groups',
    summary: 'create groups, change their members, subject, description and settings, join and leave them',
    engines: ['baileys', 'test'],
    planned: ['webjs'],
  },
  presence_subscribe: {
    port: 'presence',
    summary: "subscribe to a chat's presence (online, typing) updates",
    engines: ['baileys', 'test'],
    planned: [],
  },
  presence_set: {
    port: 'presence',
    summary: "set the account's own presence (online or offline)",
    engines: ['baileys', 'test'],
    planned: ['webjs'],
  },
  labels_read: {
    port: 'labels',
    summary: 'read labels and the chats they tag',
    engines: ['test'],
    planned: ['webjs'],
  },
  labels_edit: {
    port: 'labels',
    summary: 'create, change and delete labels',
    engines: ['baileys', 'test'],
    planned: [],
  },
  labels_tag: {
    port: 'labels',
    summary: 'add a label to a chat or remove it',
    engines: ['baileys', 'test'],
    planned: ['webjs'],
  },
  contacts_read: {
    port: 'contacts',
    summary: "read contacts' profile pictures, and a LID's phone number and a number's LID",
    engines: ['baileys', 'test'],
    planned: ['webjs'],
  },
  contacts_block: {
    port: 'contacts',
    summary: 'block and unblock contacts, and list the blocked',
    engines: ['baileys', 'test'],
    planned: ['webjs'],
  },
  contacts_check: {
    port: 'contacts',
    summary: 'check whether a number is on WhatsApp',
    engines: ['baileys', 'test'],
    planned: ['webjs'],
  },
  status_post: {
    port: 'status',
    summary: 'post status updates (text, image, video, voice) and delete them',
    engines: ['baileys', 'test'],
    planned: ['webjs'],
  },
} as const satisfies Record<string, CapabilityRow>;

export type EngineCapability = keyof typeof ENGINE_CAPABILITIES;
export const ENGINE_CAPABILITY_NAMES = Object.keys(ENGINE_CAPABILITIES) as EngineCapability[];

/** The row of `capability`, widened (the literal rows' tuples do not take `includes(kind)`). */
export function capabilityRow(capability: EngineCapability): CapabilityRow {
  return ENGINE_CAPABILITIES[capability];
}

/** True when engines of `kind` have `capability`. */
export function engineHas(kind: EngineKind, capability: EngineCapability): boolean {
  const engines: readonly EngineKind[] = capabilityRow(capability).engines;
  return engines.includes(kind);
}

/** Every capability engines of `kind` have: the row an engine factory declares. */
export function capabilitiesOf(kind: EngineKind): ReadonlySet<EngineCapability> {
  return new Set(ENGINE_CAPABILITY_NAMES.filter((capability) => engineHas(kind, capability)));
}

/** The optional ports engines of `kind` expose: those of the capabilities it has. */
export function portsOf(kind: EngineKind): ReadonlySet<OptionalEnginePort> {
  return new Set([...capabilitiesOf(kind)].map((capability) => capabilityRow(capability).port));
}

/** The engine kinds without `capability` (what a 501 description names). */
export function enginesLacking(capability: EngineCapability): EngineKind[] {
  return ENGINE_KINDS.filter((kind) => !engineHas(kind, capability));
}
