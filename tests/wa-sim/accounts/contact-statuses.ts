/**
 * A contact's status updates (WhatsApp "stories", posts to the pseudo-chat `status@broadcast`): the ones it posted,
 * so it can delete them, and the ones linked accounts posted to it, as its phone lists them.
 */
import type { MediaError } from '#tests/wa-sim/messaging/received-content.js';

/** The pseudo-chat every status goes to, encrypted with the poster's sender key as in a group. */
export const STATUS_JID = 'status@broadcast';

/** The kinds of status WhatsApp posts: a text on a background, an image, a video, a voice note. */
export type StatusType = 'text' | 'image' | 'video' | 'voice';

/** What opening a status's media gave: the plaintext's hex SHA-256 and length, or why it could not be opened. */
export type StatusMedia =
  | { readonly mimetype: string; readonly sha256: string; readonly size: number }
  | { readonly mimetype: string; readonly mediaError: MediaError };

/** A status a linked account's companion posted to the contact, decrypted and decoded. */
export interface ReceivedStatus {
  readonly id: string;
  /** The poster's phone number. */
  readonly from: string;
  readonly type: StatusType;
  /** A text status's text. */
  readonly text: string | null;
  /** An image's or video's caption. */
  readonly caption: string | null;
  /** `#RRGGBB` from the message's `backgroundArgb` (text and voice statuses). */
  readonly backgroundColor: string | null;
  /** A text status's font (`ExtendedTextMessage.FontType`). */
  readonly font: number | null;
  readonly media: StatusMedia | null;
  readonly timestamp: number;
  /** The poster deleted it (a REVOKE to `status@broadcast`). */
  deleted: boolean;
}

/** A status the contact posted. */
export interface PostedStatus {
  readonly id: string;
  readonly type: StatusType;
  readonly timestamp: number;
  deleted: boolean;
}

/** Statuses kept per contact; older ones are dropped so long runs stay bounded (WhatsApp keeps them a day). */
const RECEIVED_STATUS_LIMIT = 1_000;

/** One contact's statuses, both ways. */
export class ContactStatuses {
  /** Oldest first, as they came. */
  private readonly received: ReceivedStatus[] = [];
  private readonly posted = new Map<string, PostedStatus>();

  /** Keeps a status a companion posted to the contact. */
  keep(status: ReceivedStatus): void {
    this.received.push(status);
    if (this.received.length > RECEIVED_STATUS_LIMIT)
      this.received.splice(0, this.received.length - RECEIVED_STATUS_LIMIT);
  }

  /** Marks deleted status `id` if `from` posted it: a user deletes only its own statuses. */
  deleteReceived(from: string, id: string): void {
    const status = this.received.find((each) => each.id === id && each.from === from);
    if (status) status.deleted = true;
  }

  /** The statuses received, newest first. */
  list(): ReceivedStatus[] {
    return [...this.received].reverse();
  }

  /** Records a status the contact posted. */
  post(status: PostedStatus): void {
    this.posted.set(status.id, status);
  }

  /** A status the contact posted, by id. */
  postedStatus(id: string): PostedStatus | undefined {
    return this.posted.get(id);
  }
}
