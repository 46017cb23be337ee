/**
 * requireCapability decides from the capability table alone: it refuses (501 ENGINE_UNSUPPORTED, naming the engine
 * and the capability) exactly the kinds the table says lack a capability, and lets the others through.
 */
import { describe, expect, it } from '@jest/globals';
import {
  capabilitiesOf,
  ENGINE_CAPABILITIES,
  ENGINE_CAPABILITY_NAMES,
  ENGINE_KINDS,
  engineHas,
  enginesLacking,
} from '#shared/domain/engine-capabilities.js';
import { EngineUnsupportedError } from '#shared/errors/app-error.js';
import { requireCapability } from '#shared/use-cases/engine/require-capability.js';

const pairs = ENGINE_KINDS.flatMap((kind) =>
  ENGINE_CAPABILITY_NAMES.map((capability) => [kind, capability] as const),
);

describe('requireCapability', () => {
  it('refuses an engine without the capability with 501 ENGINE_UNSUPPORTED naming both', () => {
    // webjs has no engine yet, so the table gives it no capability.
    expect(capabilitiesOf('webjs').size).toBe(0);

    const refusal = (() => {
      try {
        requireCapability('webjs', 'pairing_code');
      } catch (error) {
        return error;
      }
      return null;
    })();

    expect(refusal).toBeInstanceOf(EngineUnsupportedError);
    expect(refusal).toMatchObject({
      status: 501,
      code: 'ENGINE_UNSUPPORTED',
      message: 'The webjs engine cannot link a device with an 8-character pairing code',
      details: { engine: 'webjs', capability: 'pairing_code' },
    });
  });

  it.each(pairs)('follows the table for %s and %s', (kind, capability) => {
    const check = () => requireCapability(kind, capability);

    if (engineHas(kind, capability)) expect(check).not.toThrow();
    else expect(check).toThrow(EngineUnsupportedError);
  });
});

describe('the capability table', () => {
  it('never lists a kind as both implementing and planning a capability', () => {
    for (const row of Object.values(ENGINE_CAPABILITIES)) {
      const engines: readonly string[] = row.engines;
      expect(row.planned.filter((kind) => engines.includes(kind))).toEqual([]);
    }
  });

  it('answers the same through each of its views', () => {
    for (const capability of ENGINE_CAPABILITY_NAMES) {
      expect(enginesLacking(capability)).toEqual(
        ENGINE_KINDS.filter((kind) => !capabilitiesOf(kind).has(capability)),
      );
    }
  });
});
