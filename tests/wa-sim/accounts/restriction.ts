/**
 * Account restrictions ("reachout timelock"): while one is active the server refuses the account's outgoing 1:1
 * messages (`ack error=463`, in `messaging.ts`) and tells its companions with a `mex` notification, op
 * `NotificationUserReachoutTimelockUpdate` — again at every login while it lasts, and once more when it is lifted.
 * Baileys turns the notification into `connection.update { reachoutTimeLock }`. The same state answers the
 * client's own `w:mex` query for it (`fetchAccountReachoutTimelock`).
 */
import { randomBytes } from 'node:crypto';
import { QueryIds, ReachoutTimelockEnforcementType } from '@whiskeysockets/baileys';
import type { Simulator } from '#tests/wa-sim/network/simulator.js';
import {
  type BinaryNode,
  child,
  iqResult,
  makeNode,
  SERVER_JID,
  unixNow,
} from '#tests/wa-sim/transport/binary.js';
import type { Account, AccountRestriction, CompanionDevice } from './accounts.js';

/** The enforcement types clients know (Baileys' `ReachoutTimelockEnforcementType`). */
export const ENFORCEMENT_TYPES = Object.values(ReachoutTimelockEnforcementType) as [
  ReachoutTimelockEnforcementType,
  ...ReachoutTimelockEnforcementType[],
];

/** How long a restriction announces it lasts when the admin call does not say. */
export const DEFAULT_RESTRICTION_SECONDS = 3600;
/** The generic reachout timelock (spam reports), as opposed to the business-policy ones. */
export const DEFAULT_ENFORCEMENT_TYPE = ReachoutTimelockEnforcementType.DEFAULT;

const NOTIFICATION_OP = 'NotificationUserReachoutTimelockUpdate';
const NOTIFICATION_FIELD = 'xwa2_notify_account_reachout_timelock';
const QUERY_FIELD = 'xwa2_fetch_account_reachout_timelock';

/** The timelock as the GraphQL-style payloads carry it (seconds as strings, as the server sends them). */
function timelockPayload(restriction: AccountRestriction | undefined): Record<string, unknown> {
  return restriction
    ? {
        is_active: true,
        time_enforcement_ends: String(restriction.endsAt),
        enforcement_type: restriction.enforcementType,
      }
    : { is_active: false, time_enforcement_ends: '0', enforcement_type: DEFAULT_ENFORCEMENT_TYPE };
}

/** `<notification type=mex>` announcing the account's restriction, or that it was lifted. */
export function timelockNotification(restriction: AccountRestriction | undefined): BinaryNode {
  const json = JSON.stringify({ data: { [NOTIFICATION_FIELD]: timelockPayload(restriction) } });
  return makeNode(
    'notification',
    { from: SERVER_JID, type: 'mex', id: randomBytes(8).toString('hex'), t: String(unixNow()) },
    [makeNode('update', { op_name: NOTIFICATION_OP }, Buffer.from(json, 'utf8'))],
  );
}

/** Sets or lifts the restriction and tells every connected companion; answers how many were told. */
export function setRestriction(
  sim: Simulator,
  account: Account,
  restriction: AccountRestriction | undefined,
): number {
  account.restriction = restriction;
  let notified = 0;
  for (const device of account.companions.values()) {
    if (device.loggedOut || !device.connection?.isOpen) continue;
    device.connection.send(timelockNotification(restriction));
    notified++;
  }
  sim.log.info(
    restriction
      ? `${account.phone} restricted (${restriction.enforcementType} until ${restriction.endsAt}); ${notified} told`
      : `${account.phone} restriction lifted; ${notified} told`,
  );
  return notified;
}

/** After a login: a companion of a restricted account hears of the restriction again. */
export function announceRestrictionAtLogin(device: CompanionDevice): void {
  const restriction = device.account.restriction;
  if (restriction && device.connection?.isOpen) device.connection.send(timelockNotification(restriction));
}

/**
 * `iq xmlns=w:mex`: answers the reachout-timelock query from the account's state; other queries (undefined) are
 * left to the router's bare result.
 */
export function handleMexIq(iq: BinaryNode, device: CompanionDevice): BinaryNode | undefined {
  if (child(iq, 'query')?.attrs.query_id !== QueryIds.REACHOUT_TIMELOCK) return undefined;
  const json = JSON.stringify({ data: { [QUERY_FIELD]: timelockPayload(device.account.restriction) } });
  return iqResult(iq, [makeNode('result', {}, Buffer.from(json, 'utf8'))]);
}
