/** Who is calling, as every use case sees it: the authenticated key (if any) and the request it came with. */
import type { Role } from './roles.js';

export interface CallerKey {
  id: string;
  name: string;
  role: Role;
  /** null: every session; otherwise only these session ids. */
  allowedSessions: readonly string[] | null;
  /** null: every chat; otherwise only these chats (shared/domain/chat-scope.ts). */
  allowedChats: readonly string[] | null;
}

export interface Caller {
  key: CallerKey | null;
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
  method: string | null;
  path: string | null;
  /** The agent tool (MCP) this call came through; audits record it, so an agent's actions can be told apart. */
  tool?: string;
}

/** A caller for work the gateway does on its own behalf (boot, sweeps, engine callbacks). */
export const SYSTEM_CALLER: Caller = {
  key: null,
  ip: null,
  userAgent: null,
  requestId: null,
  method: null,
  path: null,
};

/** True when the caller may act on this session id (unscoped keys and the system may act on all). */
export function callerMaySeeSession(caller: Caller, sessionId: string): boolean {
  const allowed = caller.key?.allowedSessions;
  return allowed == null || allowed.includes(sessionId);
}

/** The ids a list must be filtered to, or undefined for no filter. */
export function callerSessionScope(caller: Caller): readonly string[] | undefined {
  return caller.key?.allowedSessions ?? undefined;
}
