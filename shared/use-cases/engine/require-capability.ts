import {
  capabilityRow,
  type EngineCapability,
  type EngineKind,
  engineHas,
} from '#shared/domain/engine-capabilities.js';
import { EngineUnsupportedError } from '#shared/errors/app-error.js';

/**
 * Refuses (501 ENGINE_UNSUPPORTED) an operation whose capability engines of `engine` lack, by the capability table
 * alone: no host or engine is asked. Every use case behind a route that declares a `capability` calls this first,
 * with the same capability (tests/unit/functions/engine-capabilities.test.ts holds the two together).
 *
 * @example requireCapability(deps.engine, 'pairing_code');
 */
export function requireCapability(engine: EngineKind, capability: EngineCapability): void {
  if (!engineHas(engine, capability)) {
    throw new EngineUnsupportedError(engine, capability, capabilityRow(capability).summary);
  }
}
