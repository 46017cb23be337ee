/**
 * The status port (capability `status_post`): posting the account's status updates and deleting them for everyone.
 * A contact's status arrives through the emitter's `receiveStatus`, like a message through `receive`.
 */
import type { StatusPost } from '#shared/domain/status-requests.js';

/** A post as the host hands it over: its file's bytes read back from the archive for media. */
export interface StatusPostRequest {
  /** The network id to post it under (generated before, so the archived file is named by it). */
  statusId: string;
  post: StatusPost;
  bytes: Uint8Array | null;
  /** Who sees it, in neutral ids. */
  recipients: readonly string[];
}

export interface EngineStatus {
  /** Posts a status to its recipients; answers when the network took it (epoch seconds). */
  post(request: StatusPostRequest): Promise<{ timestamp: number }>;
  /** Deletes the account's own status for everyone it went to. */
  revoke(statusId: string, recipients: readonly string[]): Promise<void>;
}
