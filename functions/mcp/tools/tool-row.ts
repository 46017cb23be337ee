/**
 * One agent tool (issue 38): a row naming the route it calls (a route module, or an engine operation by its row's
 * name) and adding only what an agent needs beyond the route: the tool's name, its tier, its hints and its
 * description. Its input and output schemas, role, scope and behaviour all come from the route (tool-registry.ts).
 */
import type { AnyRoute } from '#functions/http/route.js';
import type { EngineOperationName } from '#shared/domain/engine-operations/engine-operations.js';

/** `read` tools are always listed; `write` tools only when MCP_READONLY is exactly `false`. */
export type ToolTier = 'read' | 'write';

export interface ToolRow {
  /** PascalCase domain plus action (`SessionFindOne`); the snapshot test locks the set. */
  name: string;
  /** The route module it calls, or the engine operation whose route it calls. */
  calls: AnyRoute | { operation: EngineOperationName };
  tier: ToolTier;
  description: string;
  /** It may overwrite or remove what exists (MCP `destructiveHint`); default false. */
  destructive?: boolean;
  /** Calling it twice with the same input does no more than once (MCP `idempotentHint`); default: a read. */
  idempotent?: boolean;
}
