/**
 * The test engine's status port over the test network: the account's posts and deletions are recorded there (what
 * each recipient would see), and a contact's post reaches the session through `TestNetwork.deliverStatus`.
 */
import type { StatusPost } from '#shared/domain/status-requests.js';
import type { EngineStatus } from '../ports/status.port.js';

/** A status the account posted, as the network took it. */
export interface TestPostedStatus {
  sessionId: string;
  post: StatusPost;
  /** The file's size, for media. */
  bytes: number | null;
  recipients: string[];
  revoked: boolean;
}

/** Every status the sessions' accounts posted, by network id. */
export class TestStatuses {
  readonly posted = new Map<string, TestPostedStatus>();

  /** What `recipient` (neutral id) sees of the session's statuses: the posts naming them, not deleted. */
  seenBy(recipient: string): TestPostedStatus[] {
    return [...this.posted.values()].filter((s) => !s.revoked && s.recipients.includes(recipient));
  }
}

export function testStatus(statuses: TestStatuses, sessionId: string, open: () => boolean): EngineStatus {
  const live = () => {
    if (!open()) throw new Error('connection closed');
  };
  return {
    post: async ({ statusId, post, bytes, recipients }) => {
      live();
      if (post.type !== 'text' && !bytes) throw new Error(`The ${post.type} status has no file to post`);
      const size = bytes ? bytes.byteLength : null;
      statuses.posted.set(statusId, {
        sessionId,
        post,
        bytes: size,
        recipients: [...recipients],
        revoked: false,
      });
      return { timestamp: Math.floor(Date.now() / 1000) };
    },
    revoke: async (statusId) => {
      live();
      const posted = statuses.posted.get(statusId);
      if (posted?.sessionId === sessionId) posted.revoked = true;
    },
  };
}
