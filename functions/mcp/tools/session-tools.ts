/** The session tools: the sessions a key may see, one session, its chats and stats, presence and chat state. */
import { listChatsRoute } from '#functions/chats/list-chats.route.js';
import { getSessionRoute } from '#functions/sessions/get-session.route.js';
import { listSessionsRoute } from '#functions/sessions/list-sessions.route.js';
import { sessionStatsRoute } from '#functions/sessions/session-stats.route.js';
import type { ToolRow } from './tool-row.js';

export const SESSION_TOOLS: readonly ToolRow[] = [
  {
    name: 'SessionFindAll',
    calls: listSessionsRoute,
    tier: 'read',
    description: 'List the sessions this API key may use (optionally filtered by name), with their status.',
  },
  {
    name: 'SessionFindOne',
    calls: getSessionRoute,
    tier: 'read',
    description: 'Get one session by its id (the session UUID, not its name): status, phone, timestamps.',
  },
  {
    name: 'SessionGetChats',
    calls: listChatsRoute,
    tier: 'read',
    description: "List a session's chats, newest activity first.",
  },
  {
    name: 'SessionGetStats',
    calls: sessionStatsRoute,
    tier: 'read',
    description: 'Count the sessions this API key may use, by status.',
  },
  {
    name: 'SessionGetPresence',
    calls: { operation: 'presence.get' },
    tier: 'read',
    description: "Get a contact's last known presence (online, typing, last seen) in a chat.",
  },
  {
    name: 'SessionSubscribePresence',
    calls: { operation: 'presence.subscribe' },
    tier: 'write',
    idempotent: true,
    description: "Subscribe to a contact's presence updates, so SessionGetPresence and webhooks report them.",
  },
  {
    name: 'SessionMarkChatRead',
    calls: { operation: 'chats.read' },
    tier: 'write',
    idempotent: true,
    description: 'Mark a chat (or some of its messages) as read.',
  },
  {
    name: 'SessionMarkChatUnread',
    calls: { operation: 'chats.unread' },
    tier: 'write',
    idempotent: true,
    description: 'Mark a chat as unread.',
  },
  {
    name: 'SessionSendChatState',
    calls: { operation: 'chats.typing' },
    tier: 'write',
    idempotent: true,
    description: 'Show typing or recording in a chat, or stop showing it (paused).',
  },
];
