/** Admin routes acting as the phone (linking) and as the server (accounts, devices, connections, health). */
import type { Account, CompanionDevice } from '#tests/wa-sim/accounts/accounts.js';
import { applyBlockChanges, blocklistView, blockTarget } from '#tests/wa-sim/accounts/blocklist.js';
import { setLogoutHold } from '#tests/wa-sim/accounts/client-logout.js';
import { liveConnectionsOf, resetConnectionStats } from '#tests/wa-sim/accounts/connection-stats.js';
import { checkPreKeyLow } from '#tests/wa-sim/accounts/keys.js';
import {
  DEFAULT_ENFORCEMENT_TYPE,
  DEFAULT_RESTRICTION_SECONDS,
  setRestriction,
} from '#tests/wa-sim/accounts/restriction.js';
import { decodeQrDataUrl, isPngDataUrl } from '#tests/wa-sim/linking/qr-image.js';
import type { Simulator } from '#tests/wa-sim/network/simulator.js';
import { badRequest, notFound } from '#tests/wa-sim/support/errors.js';
import { makeNode, pnJid, unixNow } from '#tests/wa-sim/transport/binary.js';
import {
  BlocklistBody,
  ConnectionsBody,
  LogoutHoldBody,
  PairCodeBody,
  PreKeysBody,
  parseBody,
  RestrictionBody,
  type Route,
  ScanQrBody,
} from './admin-schemas.js';

/** The linked account `phone`, or a 404. */
export function accountOf(sim: Simulator, phone: string | undefined): Account {
  const account = phone ? sim.accounts.get(phone) : undefined;
  if (!account) throw notFound(`no linked account ${phone ?? ''}`);
  return account;
}

function deviceView(device: CompanionDevice): Record<string, unknown> {
  return {
    deviceId: device.deviceId,
    jid: pnJid(device.account.phone, device.deviceId),
    platform: device.platform,
    connected: device.connection?.isOpen === true,
    liveConnections: liveConnectionsOf(device).length,
    ...device.connectionStats,
    loggedOut: device.loggedOut,
    preKeys: device.preKeys.size,
    offlineQueue: device.offline.length,
    unackedMessages: device.unacked.size,
    initialSyncDone: device.initialSyncDone,
  };
}

/** `restricted`, and while it is, when the restriction ends (ISO) and its enforcement type. */
function restrictionView(account: Account): Record<string, unknown> {
  const restriction = account.restriction;
  if (!restriction) return { restricted: false };
  return {
    restricted: true,
    restrictionEndsAt: new Date(restriction.endsAt * 1000).toISOString(),
    enforcementType: restriction.enforcementType,
  };
}

/** The JSON view of an account and its devices. */
function accountView(account: Account): Record<string, unknown> {
  const devices = [...account.companions.values()];
  return {
    phone: account.phone,
    jid: pnJid(account.phone),
    lid: `${account.lid}@lid`,
    pushName: account.pushName,
    ...restrictionView(account),
    logoutHold: account.logoutHold,
    heldLogouts: account.heldLogouts.length,
    online: account.online,
    connected: devices.some((device) => device.connection?.isOpen === true),
    // Over the account's devices: connections open now, and the most any one device ever had open at once.
    liveConnections: devices.reduce((sum, device) => sum + liveConnectionsOf(device).length, 0),
    maxLiveConnections: Math.max(0, ...devices.map((device) => device.connectionStats.maxLiveConnections)),
    // Each collection's version and LT hash, which a client that synced it holds too.
    appState: Object.fromEntries(
      [...account.appState].map(([name, collection]) => [
        name,
        { version: collection.patches.length, ltHash: collection.hash.toString('base64') },
      ]),
    ),
    devices: devices.map(deviceView),
  };
}

/** Routes under `/admin` for the phone and the server. */
export const accountRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/admin\/health$/,
    handle: (sim) => ({
      body: {
        ok: true,
        connections: sim.connections.size,
        accounts: sim.accounts.all().length,
        contacts: sim.contacts.all().length,
        groups: sim.groups.all().length,
        policy: sim.policy,
        stats: sim.stats,
        media: sim.media.stats(),
        // CPU time of the whole process, so load runs can tell what each message costs the simulator.
        cpuMs: Math.round((process.cpuUsage().user + process.cpuUsage().system) / 1000),
      },
    }),
  },
  {
    method: 'POST',
    pattern: /^\/admin\/mock-phone\/scan-qr$/,
    handle: async (sim, _params, body) => {
      const { qr, phone, pushName } = parseBody(ScanQrBody, body);
      const text = isPngDataUrl(qr) ? decodeQrDataUrl(qr) : qr;
      const linked = await sim.pairing.scanQr(text, { phone, pushName });
      return { body: { phone: linked.phone, jid: linked.jid, lid: linked.lid } };
    },
  },
  {
    method: 'POST',
    pattern: /^\/admin\/mock-phone\/pair-code$/,
    handle: async (sim, _params, body) => {
      const { phone, code, pushName } = parseBody(PairCodeBody, body);
      const linked = await sim.pairing.enterPairingCode(phone, code, pushName);
      return { body: { phone: linked.phone, jid: linked.jid, lid: linked.lid } };
    },
  },
  {
    method: 'GET',
    pattern: /^\/admin\/accounts$/,
    handle: (sim) => ({ body: sim.accounts.all().map(accountView) }),
  },
  {
    method: 'GET',
    pattern: /^\/admin\/accounts\/(\d+)$/,
    handle: (sim, [phone]) => ({ body: accountView(accountOf(sim, phone)) }),
  },
  {
    method: 'POST',
    pattern: /^\/admin\/accounts\/(\d+)\/disconnect$/,
    handle: (sim, [phone]) => {
      let closed = 0;
      for (const device of accountOf(sim, phone).companions.values()) {
        for (const connection of device.connections) {
          connection.terminate();
          closed++;
        }
      }
      return { body: { closed } };
    },
  },
  {
    method: 'POST',
    pattern: /^\/admin\/accounts\/(\d+)\/connection-stats\/reset$/,
    handle: (sim, [phone]) => {
      const account = accountOf(sim, phone);
      for (const device of account.companions.values()) resetConnectionStats(device);
      return { body: accountView(account) };
    },
  },
  {
    method: 'POST',
    pattern: /^\/admin\/accounts\/(\d+)\/logout$/,
    handle: (sim, [phone]) => {
      let loggedOut = 0;
      for (const device of accountOf(sim, phone).companions.values()) {
        if (device.loggedOut) continue;
        device.loggedOut = true;
        device.offline.length = 0;
        device.unacked.clear();
        loggedOut++;
        // What the server sends when the phone removes a linked device: clients treat 401 as logged out.
        for (const connection of device.connections) {
          connection.endWithStreamError('401', makeNode('conflict', { type: 'device_removed' }));
        }
      }
      return { body: { loggedOut } };
    },
  },
  {
    method: 'POST',
    pattern: /^\/admin\/accounts\/(\d+)\/logout-hold$/,
    handle: (sim, [phone], body) => {
      const account = accountOf(sim, phone);
      const { hold } = parseBody(LogoutHoldBody, body);
      const released = setLogoutHold(sim, account, hold);
      return { body: { phone: account.phone, hold, released } };
    },
  },
  {
    method: 'POST',
    pattern: /^\/admin\/accounts\/(\d+)\/restriction$/,
    handle: (sim, [phone], body) => {
      const account = accountOf(sim, phone);
      const { restricted, expiresInSeconds, enforcementType } = parseBody(RestrictionBody, body);
      const notified = setRestriction(
        sim,
        account,
        restricted
          ? {
              endsAt: unixNow() + (expiresInSeconds ?? DEFAULT_RESTRICTION_SECONDS),
              enforcementType: enforcementType ?? DEFAULT_ENFORCEMENT_TYPE,
            }
          : undefined,
      );
      return { body: { phone: account.phone, ...restrictionView(account), notified } };
    },
  },
  {
    method: 'POST',
    pattern: /^\/admin\/accounts\/(\d+)\/pre-keys$/,
    handle: (sim, [phone], body) => {
      const { keep } = parseBody(PreKeysBody, body);
      const devices = [...accountOf(sim, phone).companions.values()];
      for (const device of devices) {
        for (const id of [...device.preKeys.keys()].slice(keep)) device.preKeys.delete(id);
        checkPreKeyLow(sim, device);
      }
      return {
        body: {
          devices: devices.map((device) => ({ deviceId: device.deviceId, preKeys: device.preKeys.size })),
        },
      };
    },
  },
  {
    method: 'GET',
    pattern: /^\/admin\/accounts\/(\d+)\/blocklist$/,
    handle: (sim, [phone]) => {
      const account = accountOf(sim, phone);
      return { body: { phone: account.phone, ...blocklistView(account) } };
    },
  },
  {
    method: 'POST',
    pattern: /^\/admin\/accounts\/(\d+)\/blocklist$/,
    handle: (sim, [phone], body) => {
      const account = accountOf(sim, phone);
      const { number, action } = parseBody(BlocklistBody, body);
      const target = blockTarget(sim, pnJid(number));
      if (!target) throw notFound(`no contact or account ${number}`);
      if (target.phone === account.phone) throw badRequest('an account cannot block itself');
      // The phone acts: every companion hears of it.
      const result = applyBlockChanges(sim, account, [{ target, action }]);
      return { body: { phone: account.phone, number, action, ...result } };
    },
  },
  {
    method: 'POST',
    pattern: /^\/admin\/connections$/,
    handle: (sim, _params, body) => {
      const { mode, delayMs } = parseBody(ConnectionsBody, body);
      sim.policy = { mode, delayMs: delayMs ?? (mode === 'delay' ? 1000 : 0) };
      return { body: sim.policy };
    },
  },
  { method: 'GET', pattern: /^\/admin\/connections$/, handle: (sim) => ({ body: sim.policy }) },
];
