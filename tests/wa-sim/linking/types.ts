/** What linking takes and answers, shared by both flows (QR in `pairing.ts`, pairing code in `link-code.ts`). */
/** What a completed link answers: the account's number and the new device's jid. */
export interface LinkResult {
  readonly phone: string;
  readonly jid: string;
  readonly lid: string;
  readonly deviceId: number;
}

/** Options the phone applies when it links: which number (allocated if absent) and its push name. */
export interface LinkOptions {
  readonly phone?: string;
  readonly pushName?: string;
}
