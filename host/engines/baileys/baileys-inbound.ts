/**
 * The Baileys engine's inbound side: what a socket receives about messages. Contacts' messages are handed to the
 * session runner (`receive`) before Baileys acknowledges them, delivery states of our own messages become
 * `messageStatus` events (mapping in baileys-messages.ts).
 *
 * The network forgets a message once the device sends its receipt, and the Signal state its decryption advanced
 * refuses the same ciphertext again. Baileys sends the receipt before it reports the message (and holds reports of
 * the offline backlog until the whole backlog is in), so a gateway dying in between lost the message for good. Our
 * patch of Baileys (patches/, applied at install) calls `beforeReceipt` after decrypting and waits for it: the
 * receipt goes out, and the Signal state is committed, only once the message is stored. A failed store leaves the
 * message unacknowledged and the state rolled back, so the network delivers it again at the next connection.
 */
import { AsyncResource } from 'node:async_hooks';
import { jidDecode, type proto, type WAMessage, type WASocket } from '@whiskeysockets/baileys';
import type { Dispatcher } from 'undici';
import type {
  EngineEmitter,
  InboundChange,
  InboundMessage,
  InboundStatus,
} from '#host/engines/engine-events.js';
import { changeFromBaileys } from './baileys-inbound-changes.js';
import { type InboundMediaOptions, withMediaFile, withStatusFile } from './baileys-inbound-media.js';
import { aliasOf } from './baileys-jids.js';
import { inboundFromBaileys, statusFromBaileys, statusFromOwnUpsert } from './baileys-messages.js';
import { inboundStatusOf } from './baileys-status-inbound.js';

export class BaileysInbound {
  /** Messages already handed over before their receipt: their upsert (the same object) needs nothing more. */
  private readonly handedOver = new WeakSet<proto.IWebMessageInfo>();
  /**
   * Hands a message to the runner outside Baileys' keys transaction. The hook runs inside the transaction's async
   * context; work started from there (the relay, an autoreply that sends and encrypts) would join that
   * transaction: a send's encryption would skip the sends' mutex, and its writes would go partly into the inbound
   * commit and partly, once that transaction ended, straight to the store (Waygate's Baileys patch; unpatched they
   * were lost). Bound here, at engine creation, it runs in the engine's own context instead.
   */
  private readonly handOver: (item: Received) => Promise<void>;

  constructor(
    private readonly events: EngineEmitter,
    private readonly media: InboundMediaOptions,
    /** The session's proxy for media downloads (undefined: direct), read per download. */
    private readonly mediaDispatcher: () => Dispatcher | undefined,
  ) {
    this.handOver = AsyncResource.bind((item: Received) =>
      'kind' in item
        ? this.events.receiveStatus(item)
        : 'change' in item
          ? this.events.receiveChange(item)
          : this.events.receive(item),
    );
  }

  /** The `beforeMessageReceipt` hook of `socket`: resolves once a contact's message is stored (see above). */
  async beforeReceipt(socket: WASocket, message: proto.IWebMessageInfo): Promise<void> {
    this.reportAliases(message as WAMessage);
    const inbound = received(message as WAMessage, ownPhone(socket));
    this.handedOver.add(message);
    if (inbound) await this.handOver(await this.complete(message as WAMessage, inbound));
  }

  /** A media message or status with its file downloaded (or its omission noted); anything else as it is. */
  private complete(message: WAMessage, inbound: Received): Promise<Received> {
    const media = { ...this.media, dispatcher: this.mediaDispatcher() };
    if ('kind' in inbound) return withStatusFile(message, inbound, media);
    return 'change' in inbound ? Promise.resolve(inbound) : withMediaFile(message, inbound, media);
  }

  private reportAliases(message: WAMessage): void {
    for (const alias of aliasesIn(message)) this.events.emit('identityLinked', alias);
  }

  /** Reports what `socket` receives about messages, for as long as it lives. */
  listen(socket: WASocket): void {
    // Upserts carry what the hook did not see: messages that arrive by other paths (a resend the phone answers
    // with), and our own messages' delivery states. A message seen twice is stored once (unique network id). A
    // socket being closed still reports what it received.
    socket.ev.on('messages.upsert', ({ messages }) => {
      const phone = ownPhone(socket);
      for (const message of messages) {
        const own = statusFromOwnUpsert(message);
        if (own) this.events.emit('messageStatus', own);
        if (this.handedOver.has(message)) continue;
        this.reportAliases(message);
        const inbound = received(message, phone);
        // Nothing to hold an acknowledgement for here: a failure is logged by the runner.
        if (inbound) {
          void this.complete(message, inbound)
            .then((complete) => this.handOver(complete))
            .catch(() => undefined);
        }
      }
    });
    socket.ev.on('lid-mapping.update', ({ lid, pn }) => {
      const alias = aliasOf(lid, pn);
      if (alias) this.events.emit('identityLinked', alias);
    });
    socket.ev.on('messages.update', (updates) => {
      for (const update of updates) {
        const status = statusFromBaileys(update);
        if (status) this.events.emit('messageStatus', status);
      }
    });
  }
}

/** The LID ↔ phone pairings a message's addresses show (Baileys 7 names the other form as the "alt"). */
function aliasesIn(message: WAMessage): Array<{ lid: string; phone: string }> {
  const { key } = message;
  return [aliasOf(key.remoteJid, key.remoteJidAlt), aliasOf(key.participant, key.participantAlt)].filter(
    (alias): alias is { lid: string; phone: string } => alias !== null,
  );
}

/** What a contact's message brings to store: a message, a change of a stored one, or a status update. */
type Received = InboundMessage | InboundChange | InboundStatus;

/** What a contact's message brings, or nothing. */
function received(message: WAMessage, phone: string): Received | null {
  return inboundStatusOf(message) ?? inboundFromBaileys(message, phone) ?? changeFromBaileys(message);
}

function ownPhone(socket: WASocket): string {
  return jidDecode(socket.authState.creds.me?.id ?? '')?.user ?? '';
}
