/**
 * Every engine operation, by name: the one list the host operations, the engine ports and the routes are made from.
 * A new operation's row is added here (its domain's file holds the definition).
 */
import type { z } from 'zod';
import type { OptionalEnginePort } from '../engine-capabilities.js';
import {
  blockContact,
  blockedContacts,
  checkContact,
  contactPhone,
  contactProfilePicture,
  unblockContact,
} from './contacts.js';
import type { EngineOperationRow, PortOfCapability } from './engine-operation.js';

export const ENGINE_OPERATIONS = {
  [checkContact.name]: checkContact,
  [blockedContacts.name]: blockedContacts,
  [contactProfilePicture.name]: contactProfilePicture,
  [contactPhone.name]: contactPhone,
  [blockContact.name]: blockContact,
  [unblockContact.name]: unblockContact,
} as const satisfies Record<string, EngineOperationRow>;

type Operations = typeof ENGINE_OPERATIONS;
export type EngineOperationName = keyof Operations;
export type EngineOperationInput<N extends EngineOperationName> = z.output<Operations[N]['input']>;
export type EngineOperationResult<N extends EngineOperationName> = z.output<Operations[N]['result']>;

/** The rows as a list (widened), for code that handles every row alike. */
export const ENGINE_OPERATION_ROWS: readonly EngineOperationRow[] = Object.values(ENGINE_OPERATIONS);

/**
 * The methods an engine's port `P` has: one per row whose capability belongs to `P`, taking the row's parsed input
 * and answering its result. An engine implements the port by implementing these (engine.port.ts).
 */
export type PortOperations<P extends OptionalEnginePort> = {
  [N in EngineOperationName as PortOfCapability<Operations[N]['capability']> extends P
    ? Operations[N]['method']
    : never]: (input: EngineOperationInput<N>) => Promise<EngineOperationResult<N>>;
};

/** The ports that have at least one operation row. */
export type OperationPort = PortOfCapability<Operations[EngineOperationName]['capability']>;
