/**
 * Every engine operation, by name: the one list the host operations, the engine ports and the routes are made from.
 * A domain's file of rows (contacts.ts, …) is taken in whole: every row it exports is an operation, so adding one to
 * an existing domain touches that file alone here. A new domain's file is added to DOMAINS.
 */
import type { z } from 'zod';
import type { OptionalEnginePort } from '../engine-capabilities.js';
import * as calls from './calls.js';
import * as chats from './chats.js';
import * as contacts from './contacts.js';
import type { EngineOperationRow, PortOfCapability } from './engine-operation.js';
import * as groupMembers from './group-members.js';
import * as groupPictures from './group-pictures.js';
import * as groups from './groups.js';
import * as labels from './labels.js';
import * as presence from './presence.js';

const DOMAINS = [contacts, chats, presence, groups, groupMembers, groupPictures, calls, labels] as const;

/** Every row a domain's module exports (distributed over the modules: a mapped tuple type collapses to never). */
type RowOf<M> = M extends unknown ? M[keyof M] : never;
type Row = RowOf<(typeof DOMAINS)[number]>;

/** The rows by their name (what the host RPC and the logs call them). */
export const ENGINE_OPERATIONS = Object.fromEntries(
  DOMAINS.flatMap((domain) => Object.values(domain) as EngineOperationRow[]).map((row) => [row.name, row]),
) as { readonly [R in Row as R['name']]: R };

type Operations = typeof ENGINE_OPERATIONS;
export type EngineOperationName = keyof Operations;
export type EngineOperationInput<N extends EngineOperationName> = z.output<Operations[N]['input']>;
export type EngineOperationResult<N extends EngineOperationName> = z.output<Operations[N]['result']>;
/** What the engine's method of a row takes: what the row's `toEngine` makes, or else the parsed input. */
export type EngineMethodInput<N extends EngineOperationName> = Awaited<
  ReturnType<NonNullable<Operations[N]['toEngine']>>
>;

/** The rows as a list (widened), for code that handles every row alike. */
export const ENGINE_OPERATION_ROWS: readonly EngineOperationRow[] = Object.values(ENGINE_OPERATIONS);

/**
 * The methods an engine's port `P` has: one per row whose capability belongs to `P`, taking the row's parsed input
 * (or what its `toEngine` makes of it) and answering its result. An engine implements the port by implementing
 * these (engine.port.ts).
 */
export type PortOperations<P extends OptionalEnginePort> = {
  [N in EngineOperationName as PortOfCapability<Operations[N]['capability']> extends P
    ? Operations[N]['method']
    : never]: (input: EngineMethodInput<N>) => Promise<EngineOperationResult<N>>;
};

/** The ports that have at least one operation row. */
export type OperationPort = PortOfCapability<Operations[EngineOperationName]['capability']>;
