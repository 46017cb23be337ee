/** The contact and group tools: look-ups, block and unblock, and the group changes an agent may make. */
import type { ToolRow } from './tool-row.js';

export const CONTACT_TOOLS: readonly ToolRow[] = [
  {
    name: 'ContactFindAll',
    calls: { operation: 'contacts.list' },
    tier: 'read',
    description: "List a session's contacts.",
  },
  {
    name: 'ContactFindOne',
    calls: { operation: 'contacts.get' },
    tier: 'read',
    description: 'Get one contact by its id.',
  },
  {
    name: 'ContactCheckNumber',
    calls: { operation: 'contacts.check' },
    tier: 'read',
    description: 'Check whether a phone number is on WhatsApp, and its WhatsApp id.',
  },
  {
    name: 'ContactResolvePhone',
    calls: { operation: 'contacts.phone' },
    tier: 'read',
    description: 'Resolve a contact id (a phone id or an @lid) to its phone number, when known.',
  },
  {
    name: 'ContactGetProfilePicture',
    calls: { operation: 'contacts.profilePicture' },
    tier: 'read',
    description: "Get the URL of a contact's profile picture.",
  },
  {
    name: 'ContactBlock',
    calls: { operation: 'contacts.block' },
    tier: 'write',
    idempotent: true,
    description: 'Block a contact.',
  },
  {
    name: 'ContactUnblock',
    calls: { operation: 'contacts.unblock' },
    tier: 'write',
    idempotent: true,
    description: 'Unblock a contact.',
  },
];

export const GROUP_TOOLS: readonly ToolRow[] = [
  {
    name: 'GroupFindAll',
    calls: { operation: 'groups.list' },
    tier: 'read',
    description: 'List the groups the session belongs to.',
  },
  {
    name: 'GroupFindOne',
    calls: { operation: 'groups.get' },
    tier: 'read',
    description: 'Get one group: subject, description, participants and their roles.',
  },
  {
    name: 'GroupGetInviteCode',
    calls: { operation: 'groups.inviteCode' },
    tier: 'read',
    description: "Get a group's invite code and link (the session must be a group admin).",
  },
  {
    name: 'GroupCreate',
    calls: { operation: 'groups.create' },
    tier: 'write',
    description: 'Create a group with a subject and its first participants.',
  },
  {
    name: 'GroupAddParticipants',
    calls: { operation: 'groups.addParticipants' },
    tier: 'write',
    idempotent: true,
    description: 'Add participants to a group; the answer says, per participant, whether it was added.',
  },
  {
    name: 'GroupSetSubject',
    calls: { operation: 'groups.setSubject' },
    tier: 'write',
    destructive: true,
    idempotent: true,
    description: "Replace a group's subject (its name).",
  },
  {
    name: 'GroupSetDescription',
    calls: { operation: 'groups.setDescription' },
    tier: 'write',
    destructive: true,
    idempotent: true,
    description: "Replace a group's description.",
  },
];
