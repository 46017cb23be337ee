/**
 * The primary phone's post-link work for a new companion, without which clients keep their events buffered:
 * it shares the app-state sync key and sends an INITIAL_BOOTSTRAP history-sync notification with an inline
 * payload (Baileys v7 releases its buffer on it, or at once with `shouldSyncHistoryMessage: () => false`).
 * The payload carries the phone's chat list (`history.ts`). The peer messages carry the account's push name, which
 * becomes the client's `me.name` (needed for presence). Then the phone points the companion at its app-state
 * collections: the address book (`accounts/address-book.ts`) and the chats' actions (`accounts/chat-actions.ts`).
 */
import { proto } from '@whiskeysockets/baileys';
import type { Account, CompanionDevice } from '#tests/wa-sim/accounts/accounts.js';
import { syncAddressBook } from '#tests/wa-sim/accounts/address-book.js';
import { offerCollections } from '#tests/wa-sim/accounts/app-state.js';
import { sealForCompanion } from '#tests/wa-sim/messaging/seal.js';
import type { Simulator } from '#tests/wa-sim/network/simulator.js';
import { encodeMessage, lidJid, makeNode, pnJid, unixNow } from '#tests/wa-sim/transport/binary.js';
import { historyPayload } from './history.js';

const RECEIPT_TIMEOUT_MS = 20_000;
const syncing = new WeakSet<CompanionDevice>();

/** Runs the phone's post-link sync for `device` once per link (again after a login that did not finish it). */
export async function runPostLinkSync(sim: Simulator, device: CompanionDevice): Promise<void> {
  if (device.initialSyncDone || syncing.has(device)) return;
  syncing.add(device);
  try {
    const account = device.account;
    const Type = proto.Message.ProtocolMessage.Type;
    await sendFromPhone(sim, device, {
      protocolMessage: {
        type: Type.APP_STATE_SYNC_KEY_SHARE,
        appStateSyncKeyShare: { keys: [appStateKey(account, device)] },
      },
    });
    await sendFromPhone(sim, device, {
      protocolMessage: {
        type: Type.HISTORY_SYNC_NOTIFICATION,
        historySyncNotification: {
          syncType: proto.HistorySync.HistorySyncType.INITIAL_BOOTSTRAP,
          chunkOrder: 0,
          progress: 100,
          initialHistBootstrapInlinePayload: historyPayload(sim, account),
        },
      },
    });
    // The saved contacts and the chats' settings reach the companion as WhatsApp's do: through app-state sync, once
    // it holds the key (a companion that skips history sync fetches only what it is pointed at).
    syncAddressBook(sim, account);
    offerCollections(sim, device);
    device.initialSyncDone = true;
    sim.log.info(`${account.phone}:${device.deviceId} post-link sync done`);
  } catch (error) {
    sim.log.info(`${device.account.phone}:${device.deviceId} post-link sync not finished`, error);
  } finally {
    syncing.delete(device);
  }
}

async function sendFromPhone(
  sim: Simulator,
  device: CompanionDevice,
  message: proto.IMessage,
): Promise<void> {
  const account = device.account;
  const connection = device.connection;
  if (!connection?.isOpen) throw new Error('companion went offline');
  const enc = await sealForCompanion(sim, account.primary, device, encodeMessage(message));
  const id = sim.newMessageId();
  const receipt = sim.receipts.wait(connection, id, RECEIPT_TIMEOUT_MS);
  connection.send(
    makeNode(
      'message',
      {
        from: pnJid(account.phone),
        sender_lid: lidJid(account.lid),
        id,
        t: String(unixNow()),
        type: 'protocol',
        category: 'peer',
        notify: account.pushName,
      },
      [enc],
    ),
  );
  await receipt;
}

function appStateKey(account: Account, device: CompanionDevice): proto.Message.IAppStateSyncKey {
  return {
    keyId: { keyId: account.appStateKey.keyId },
    keyData: {
      keyData: account.appStateKey.keyData,
      fingerprint: { rawId: 1, currentIndex: 0, deviceIndexes: [0, device.keyIndex] },
      timestamp: Date.now(),
    },
  };
}
