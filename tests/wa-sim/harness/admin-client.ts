/** A small client for the simulator's admin API, as gateway tests would drive it. */
import type { PhoneChatView } from '#tests/wa-sim/accounts/chat-state.js';
import type { ReceivedStatus } from '#tests/wa-sim/accounts/contact-statuses.js';
import type { ReceivedMessage, SentMessage } from '#tests/wa-sim/accounts/contacts.js';
import type { PhoneLabelView } from '#tests/wa-sim/accounts/label-state.js';
import { eventually } from './wait.js';

/** The plaintext of a media message a contact received (`GET /admin/contacts/{number}/messages/{id}/media`). */
export interface ReceivedMediaBytes {
  readonly bytes: Buffer;
  readonly mimetype: string;
  /** Hex SHA-256 of `bytes`, as the simulator computed it. */
  readonly sha256: string;
}

/** A JSON answer and its status. */
export interface AdminReply<T = unknown> {
  readonly status: number;
  readonly body: T;
}

/** Calls the admin API under `adminUrl` (`http://host:port/admin`). */
export class AdminClient {
  constructor(private readonly adminUrl: string) {}

  /** GET `path` (relative to `/admin`). */
  get<T = unknown>(path: string): Promise<AdminReply<T>> {
    return this.call<T>('GET', path);
  }

  /** POST `body` as JSON to `path` (relative to `/admin`). */
  post<T = unknown>(path: string, body?: unknown): Promise<AdminReply<T>> {
    return this.call<T>('POST', path, body);
  }

  /** POST and require a 2xx answer, returning its body. */
  async ok<T = unknown>(path: string, body?: unknown): Promise<T> {
    const reply = await this.post<T>(path, body);
    if (reply.status >= 300) throw new Error(`POST ${path} → ${reply.status} ${JSON.stringify(reply.body)}`);
    return reply.body;
  }

  /** What contact `number` received, decrypted and decoded (`GET /admin/contacts/{number}/messages`). */
  received(number: string): Promise<ReceivedMessage[]> {
    return this.must<ReceivedMessage[]>(`/contacts/${number}/messages`);
  }

  /** Message `id` as contact `number` recorded it, once it decrypted (and opened) it. */
  receivedOne(number: string, id: string, timeoutMs = 10_000): Promise<ReceivedMessage> {
    const found = async () => (await this.received(number)).find((message) => message.id === id);
    return eventually(found, timeoutMs, `${id} at ${number}`);
  }

  /** What contact `number` sent, with its receipts and reactions (`GET /admin/contacts/{number}/sent`). */
  sent(number: string): Promise<SentMessage[]> {
    return this.must<SentMessage[]>(`/contacts/${number}/sent`);
  }

  /** The statuses linked accounts posted to contact `number`, newest first (`GET /admin/contacts/{number}/statuses`). */
  statuses(number: string): Promise<ReceivedStatus[]> {
    return this.must<ReceivedStatus[]>(`/contacts/${number}/statuses`);
  }

  /** The chats of account `phone` as its phone shows them (`GET /admin/accounts/{phone}/chats`). */
  async chats(phone: string): Promise<PhoneChatView[]> {
    return (await this.must<{ chats: PhoneChatView[] }>(`/accounts/${phone}/chats`)).chats;
  }

  /** Chat `jid` of account `phone` as its phone shows it, once `pick` holds for it (polled). */
  chatWhen(
    phone: string,
    jid: string,
    pick: (chat: PhoneChatView) => boolean,
    timeoutMs = 10_000,
  ): Promise<PhoneChatView> {
    return this.polled(`/accounts/${phone}/chats/${jid}`, pick, timeoutMs, `chat ${jid} of ${phone}`);
  }

  /** The labels of account `phone` as its phone shows them, and per chat jid the labels tagging it. */
  labels(phone: string): Promise<{ labels: PhoneLabelView[]; chats: Record<string, string[]> }> {
    return this.must(`/accounts/${phone}/labels`);
  }

  /** Label `id` of account `phone` as its phone shows it, once `pick` holds for it (polled). */
  labelWhen(
    phone: string,
    id: string,
    pick: (label: PhoneLabelView) => boolean,
    timeoutMs = 10_000,
  ): Promise<PhoneLabelView> {
    return this.polled(`/accounts/${phone}/labels/${id}`, pick, timeoutMs, `label ${id} of ${phone}`);
  }

  /** The decrypted bytes of media message `id` that contact `number` received; throws on any non-200. */
  async media(number: string, id: string): Promise<ReceivedMediaBytes> {
    const path = `/contacts/${number}/messages/${encodeURIComponent(id)}/media`;
    const response = await fetch(`${this.adminUrl}${path}`);
    if (response.status !== 200) throw new Error(`GET ${path} → ${response.status} ${await response.text()}`);
    return {
      bytes: Buffer.from(await response.arrayBuffer()),
      mimetype: response.headers.get('content-type') ?? '',
      sha256: response.headers.get('x-media-sha256') ?? '',
    };
  }

  /** GET `path` until it answers 200 with a body `pick` holds for; fails after `timeoutMs` naming `what`. */
  private polled<T>(path: string, pick: (body: T) => boolean, timeoutMs: number, what: string): Promise<T> {
    const found = async () => {
      const reply = await this.get<T>(path);
      return reply.status === 200 && pick(reply.body) ? reply.body : undefined;
    };
    return eventually(found, timeoutMs, what);
  }

  private async must<T>(path: string): Promise<T> {
    const reply = await this.get<T>(path);
    if (reply.status >= 300) throw new Error(`GET ${path} → ${reply.status} ${JSON.stringify(reply.body)}`);
    return reply.body;
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<AdminReply<T>> {
    const response = await fetch(`${this.adminUrl}${path}`, {
      method,
      headers: body === undefined ? undefined : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as T };
  }
}
