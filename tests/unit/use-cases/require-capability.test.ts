/**
 * requireCapability and the capability table's views, against what each engine kind can do today written out by
 * hand (HAS below, not read from the table): requireCapability refuses (501 ENGINE_UNSUPPORTED, naming the engine
 * and the capability) exactly the pairs HAS does not list, and lets the others through. A capability that moves in
 * the table changes HAS with it, on purpose.
 */
import { describe, expect, it } from '@jest/globals';
import {
  capabilitiesOf,
  ENGINE_CAPABILITIES,
  ENGINE_CAPABILITY_NAMES,
  ENGINE_KINDS,
  type EngineCapability,
  type EngineKind,
  enginesLacking,
  portsOf,
} from '#shared/domain/engine-capabilities.js';
import { EngineUnsupportedError } from '#shared/errors/app-error.js';
import { requireCapability } from '#shared/use-cases/engine/require-capability.js';

/** What the Baileys and test engines can do today. */
const FULL: readonly EngineCapability[] = [
  'pairing_code',
  'reject_calls',
  'contacts_check',
  'contacts_read',
  'contacts_block',
  'chats_list',
  'chats_manage',
  'presence_subscribe',
  'presence_set',
  'groups_read',
  'groups_manage',
  'labels_edit',
  'labels_tag',
  'status_post',
];

/** The capabilities each kind has today. `test-core` has none, whatever the table grows. */
const HAS: Record<EngineKind, readonly EngineCapability[]> = {
  baileys: FULL,
  webjs: [],
  test: [...FULL, 'labels_read'],
  'test-core': [],
};

const pairs = ENGINE_KINDS.flatMap((kind) =>
  ENGINE_CAPABILITY_NAMES.map((capability) => [kind, capability, HAS[kind].includes(capability)] as const),
);

/** What requireCapability threw, or null. */
function refusalOf(kind: EngineKind, capability: EngineCapability): unknown {
  try {
    requireCapability(kind, capability);
  } catch (error) {
    return error;
  }
  return null;
}

describe('requireCapability', () => {
  it.each([
    ['webjs', 'The webjs engine cannot link a device with an 8-character pairing code'],
    ['test-core', 'The test-core engine cannot link a device with an 8-character pairing code'],
  ] as const)(
    'refuses the %s engine a pairing code with 501 ENGINE_UNSUPPORTED naming both',
    (kind, message) => {
      const refusal = refusalOf(kind, 'pairing_code');

      expect(refusal).toBeInstanceOf(EngineUnsupportedError);
      expect(refusal).toMatchObject({
        status: 501,
        code: 'ENGINE_UNSUPPORTED',
        message,
        details: { engine: kind, capability: 'pairing_code' },
      });
    },
  );

  it.each(pairs)('on the %s engine, %s: allowed is %s', (kind, capability, allowed) => {
    const refusal = refusalOf(kind, capability);

    if (allowed) expect(refusal).toBeNull();
    else expect(refusal).toBeInstanceOf(EngineUnsupportedError);
  });
});

describe('the capability table', () => {
  it('never lists a kind as both implementing and planning a capability', () => {
    for (const row of Object.values(ENGINE_CAPABILITIES)) {
      const engines: readonly string[] = row.engines;
      expect(row.planned.filter((kind) => engines.includes(kind))).toEqual([]);
    }
  });

  it.each(ENGINE_KINDS)('gives the %s engine its capabilities and their ports', (kind) => {
    expect([...capabilitiesOf(kind)].sort()).toEqual([...HAS[kind]].sort());
    const ports = HAS[kind].map((capability) => ENGINE_CAPABILITIES[capability].port);
    expect([...portsOf(kind)].sort()).toEqual([...new Set(ports)].sort());
  });

  it.each(ENGINE_CAPABILITY_NAMES)('names the kinds without %s', (capability) => {
    expect(enginesLacking(capability)).toEqual(
      ENGINE_KINDS.filter((kind) => !HAS[kind].includes(capability)),
    );
  });
});
