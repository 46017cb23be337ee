/**
 * Simulated contacts: other WhatsApp users, each one phone with real Signal keys. A contact keeps what it
 * received (decrypted) and the receipts its own messages got, and answers with receipts as configured.
 */

import type { proto } from '@whiskeysockets/baileys';
import { SignalDevice } from '#tests/wa-sim/crypto/signal-device.js';
import type { MediaKind, MediaRef } from '#tests/wa-sim/media/media-crypto.js';
import type { Addressing } from '#tests/wa-sim/messaging/lid-addressing.js';
import type { ReceivedContent } from '#tests/wa-sim/messaging/received-content.js';
import { ContactStatuses } from './contact-statuses.js';
import type { IdAllocator } from './ids.js';

/** How a contact behaves; changed through the admin API. */
export interface ContactConfig {
  /** Send a delivery receipt for every message received. */
  autoDeliver: boolean;
  /** Send a read receipt after the delivery receipt. */
  autoRead: boolean;
  /** Presence the contact shows to subscribers. */
  online: boolean;
  /** Delay before automatic receipts, so tests can tell them apart from the send. */
  receiptDelayMs: number;
  /** How its 1:1 messages name it: by phone number or by LID (`messaging/lid-addressing.ts`). */
  addressing: Addressing;
  /** Its profile picture: shown, none set (404 to whoever asks), or hidden by its privacy settings (401). */
  picture: PictureSetting;
  /** Its about text (usync `status`); empty when it has none. */
  about: string;
  /** Who may add it to groups: anyone, or no one (an add answers 403 with a private invitation instead). */
  groupAdd: GroupAddSetting;
}

/**
 * A contact's "who can add me to groups" privacy setting. `nobody` stands for every setting that refuses the adder
 * (WhatsApp's "My contacts" for a stranger, "My contacts except…").
 */
export const GROUP_ADD_SETTINGS = ['everyone', 'nobody'] as const;
export type GroupAddSetting = (typeof GROUP_ADD_SETTINGS)[number];

/** Whether a contact has a profile picture others can see (`accounts/profile-picture.ts`). */
export const PICTURE_SETTINGS = ['set', 'none', 'hidden'] as const;
export type PictureSetting = (typeof PICTURE_SETTINGS)[number];

/** The about text WhatsApp gives a new user. */
export const DEFAULT_ABOUT = 'Hey there! I am using WhatsApp.';

/** Reactions to a message, by the reacting user's phone-number jid. */
export type Reactions = Record<string, string>;

/** A message the contact received and decrypted, and what later messages of its chat did to it. */
export interface ReceivedMessage {
  readonly id: string;
  /** The sender's phone number jid (an account's). */
  readonly from: string;
  /** The group jid when the message was sent to a group. */
  readonly group?: string;
  /** The message's outer field as it came, without `Message` (`text`, `location`, `protocol`, `viewOnce`…). */
  readonly type: string;
  /** The text of a plain text or a caption at the top level (not inside a wrapper, nor an edit's new text). */
  readonly text?: string;
  readonly timestamp: number;
  /** What it says, decoded by kind (wrappers taken off). */
  readonly content: ReceivedContent;
  /** Its text after the sender's latest edit. */
  editedText?: string;
  /** The sender deleted it for everyone. */
  revoked?: boolean;
  /** Reactions to it; a reaction taken back is removed. */
  reactions?: Reactions;
}

/** Delivery state of a message the contact sent, driven by the recipient's receipts. */
export type SentStatus = 'sent' | 'delivered' | 'read' | 'played';

/** What a contact sent: a text, or one of the other kinds the admin API takes. */
export type SentKind = 'text' | 'location' | 'contact' | 'reply' | 'reaction' | 'edit' | 'revoke' | MediaKind;

/** A message the contact sent and what the recipient reported back. */
export interface SentMessage {
  readonly id: string;
  readonly to: string;
  readonly kind: SentKind;
  /** The text of a text or reply, the new text of an edit, a media message's caption. */
  readonly text?: string;
  /** The message a reply quotes, a reaction reacts to, an edit changes or a revoke deletes. */
  readonly target?: string;
  /** A reaction's emoji ('' takes the reaction back). */
  readonly emoji?: string;
  readonly timestamp: number;
  readonly group?: string;
  status: SentStatus;
  /** Its text after the contact's latest edit. */
  editedText?: string;
  /** The contact deleted it for everyone. */
  revoked?: boolean;
  /** Reactions to it; a reaction taken back is removed. */
  reactions?: Reactions;
}

/** Received messages kept per contact; older ones are dropped so long load runs stay bounded. */
const RECEIVED_LIMIT = 10_000;

/** One simulated contact. */
export class Contact {
  readonly device = new SignalDevice();
  readonly received: ReceivedMessage[] = [];
  private readonly receivedById = new Map<string, ReceivedMessage>();
  readonly sent = new Map<string, SentMessage>();
  /** The decoded content of messages sent and received, by id: what a reply quotes. */
  private readonly contents = new Map<string, proto.IMessage>();
  /** Where the media of a received media message is, by id (kept apart: an edit replaces the content). */
  private readonly media = new Map<string, MediaRef>();
  /** Group jid (or `status@broadcast`) → companion device keys that already hold this contact's sender key. */
  readonly senderKeyHolders = new Map<string, Set<string>>();
  /** The statuses it posted and those posted to it. */
  readonly statuses = new ContactStatuses();
  receivedCount = 0;
  /** In the phones' address books (`address-book.ts`): created through the admin API rather than by writing. */
  saved = false;
  lastSeen = Math.floor(Date.now() / 1000);
  readonly config: ContactConfig = {
    autoDeliver: true,
    autoRead: false,
    online: true,
    receiptDelayMs: 0,
    addressing: 'pn',
    picture: 'set',
    about: DEFAULT_ABOUT,
    groupAdd: 'everyone',
  };

  constructor(
    readonly number: string,
    readonly lid: string,
    public name: string,
  ) {}

  /**
   * Records a decrypted message, its content and where its media is, and applies a reaction, edit or revoke to the
   * message it points at, as a phone shows it.
   */
  remember(message: ReceivedMessage, content: proto.IMessage, media?: MediaRef): void {
    this.apply(message);
    this.receivedCount++;
    this.received.push(message);
    this.receivedById.set(message.id, message);
    this.contents.set(message.id, content);
    if (media) this.media.set(message.id, media);
    if (this.received.length > RECEIVED_LIMIT) {
      for (const dropped of this.received.splice(0, this.received.length - RECEIVED_LIMIT)) {
        this.receivedById.delete(dropped.id);
        this.contents.delete(dropped.id);
        this.media.delete(dropped.id);
      }
    }
  }

  /** Where the media of received message `id` is, when it is a media message. */
  mediaOf(id: string): MediaRef | undefined {
    return this.media.get(id);
  }

  /** Records a message the contact sent and its content. */
  recordSent(message: SentMessage, content: proto.IMessage): void {
    this.sent.set(message.id, message);
    this.contents.set(message.id, content);
  }

  /** The content of a message sent or received, as a reply would quote it now. */
  contentOf(id: string): proto.IMessage | undefined {
    return this.contents.get(id);
  }

  /** Replaces the content of a message the contact sent (after an edit). */
  replaceContent(id: string, content: proto.IMessage): void {
    if (this.sent.has(id)) this.contents.set(id, content);
  }

  /** A received message by id. */
  findReceived(id: string): ReceivedMessage | undefined {
    return this.receivedById.get(id);
  }

  private apply(message: ReceivedMessage): void {
    const { content } = message;
    if (content.kind === 'reaction') {
      const target = this.inChat(message, content.targetId);
      if (target) target.reactions = react(target.reactions, message.from, content.emoji);
      return;
    }
    if (content.kind !== 'edit' && content.kind !== 'revoke') return;
    // A user edits or deletes only its own earlier messages of the chat.
    const target = this.receivedById.get(content.targetId);
    if (!target || target.revoked || target.from !== message.from || target.group !== message.group) return;
    if (content.kind === 'revoke') {
      target.revoked = true;
      return;
    }
    target.editedText = content.text;
    // A reply quotes the text shown now.
    this.contents.set(target.id, { conversation: content.text });
  }

  /** Message `id` of the chat `message` came in, whether the contact received or sent it. */
  private inChat(message: ReceivedMessage, id: string): ReceivedMessage | SentMessage | undefined {
    const chat = message.group ?? message.from;
    const received = this.receivedById.get(id);
    if (received && (received.group ?? received.from) === chat) return received;
    const sent = this.sent.get(id);
    return sent?.to === chat ? sent : undefined;
  }
}

/** `reactions` with `from`'s reaction set to `emoji`, or taken back when it is empty. */
function react(reactions: Reactions | undefined, from: string, emoji: string): Reactions {
  const others = Object.entries(reactions ?? {}).filter(([jid]) => jid !== from);
  return Object.fromEntries(emoji ? [...others, [from, emoji]] : others);
}

/** The registry of contacts, by number and by LID. */
export class ContactRegistry {
  private readonly byNumber = new Map<string, Contact>();
  private readonly byLid = new Map<string, Contact>();

  constructor(private readonly ids: IdAllocator) {}

  /** Every contact. */
  all(): Contact[] {
    return [...this.byNumber.values()];
  }

  /** The contact with this number. */
  get(number: string): Contact | undefined {
    return this.byNumber.get(number);
  }

  /** The contact whose number or LID user is `user`. */
  findByUser(user: string): Contact | undefined {
    return this.byNumber.get(user) ?? this.byLid.get(user);
  }

  /** The contact for `number`, created with fresh Signal keys on first use. */
  getOrCreate(number: string, name?: string): Contact {
    const existing = this.byNumber.get(number);
    if (existing) {
      if (name) existing.name = name;
      return existing;
    }
    this.ids.claimPhone(number);
    const contact = new Contact(number, this.ids.allocateLid(), name ?? `Contact ${number}`);
    this.byNumber.set(number, contact);
    this.byLid.set(contact.lid, contact);
    return contact;
  }
}
