/**
 * The contacts operations (openwa-facts §1.3): what the session's account knows of other WhatsApp users, read
 * live from the engine (never stored by the gateway). A person appears by phone number (`<number>@c.us`) and, when
 * either side knows the mapping, by LID (`<id>@lid`) too.
 */
import { z } from 'zod';
import { PageQuery } from '../common.js';
import { PICTURES_MAX_IDS } from '../contact-pictures.js';
import { PersonId } from '../person-ids.js';
import { defineEngineOperation } from './engine-operation.js';

/** A phone number as the API takes it: international format, digits only. */
const PhoneDigits = z
  .string()
  .regex(/^[0-9]{6,15}$/, 'digits only, 6–15 of them, in international format without +');

/** `GET …/contacts/check/{number}`: whether a number is on WhatsApp, and the ids it has there. */
export const checkContact = defineEngineOperation({
  name: 'contacts.check',
  capability: 'contacts_check',
  method: 'checkNumber',
  input: z.strictObject({ number: PhoneDigits }),
  result: z
    .object({
      number: z.string(),
      exists: z.boolean(),
      /** `<number>@c.us` as WhatsApp knows it (null when the number is not on WhatsApp). */
      whatsappId: z.string().nullable(),
      /** The user's LID (`<id>@lid`) when the network told it. */
      lid: z.string().nullable(),
    })
    .meta({ id: 'ContactCheck' }),
  role: 'operator',
  http: {
    method: 'GET',
    path: '/api/sessions/{sessionId}/contacts/check/{number}',
    summary: 'Check whether a number is on WhatsApp',
    tag: 'Contacts',
    success: 200,
  },
  example: {
    input: { number: '15550002222' },
    result: { number: '15550002222', exists: true, whatsappId: '15550002222@c.us', lid: null },
  },
});

const ContactId = PersonId;
const ContactRef = z.strictObject({ contactId: ContactId });
const Done = (id: string) => z.object({ success: z.literal(true), message: z.string() }).meta({ id });

/** `GET …/contacts/{contactId}/profile-picture`: the picture's URL, or null when it has none or hides it. */
export const contactProfilePicture = defineEngineOperation({
  name: 'contacts.profilePicture',
  capability: 'contacts_read',
  method: 'profilePicture',
  input: ContactRef,
  result: z.object({ url: z.string().nullable() }).meta({ id: 'ContactProfilePicture' }),
  role: 'viewer',
  chats: { addresses: ['contactId'] },
  http: {
    method: 'GET',
    path: '/api/sessions/{sessionId}/contacts/{contactId}/profile-picture',
    summary: 'Get the profile picture URL of a contact',
    tag: 'Contacts',
    success: 200,
  },
  example: {
    input: { contactId: '15550002222@c.us' },
    result: { url: 'https://pps.whatsapp.net/v/t61.24694-24/…' },
  },
});

/** `GET …/contacts/{contactId}/phone`: the phone number behind a LID (a phone-number id answers its own). */
export const contactPhone = defineEngineOperation({
  name: 'contacts.phone',
  capability: 'contacts_read',
  method: 'phoneOf',
  input: ContactRef,
  result: z
    .object({
      contactId: z.string(),
      /** Digits, international format; null when the network has not told which number the LID is. */
      phone: z.string().nullable(),
    })
    .meta({ id: 'ContactPhone' }),
  role: 'viewer',
  chats: { addresses: ['contactId'] },
  http: {
    method: 'GET',
    path: '/api/sessions/{sessionId}/contacts/{contactId}/phone',
    summary: 'Resolve a contact id (a LID) to its phone number',
    tag: 'Contacts',
    success: 200,
  },
  example: {
    input: { contactId: '880001@lid' },
    result: { contactId: '880001@lid', phone: '15550002222' },
  },
});

/** `GET …/contacts/{contactId}/lid`: the LID behind a phone number (a LID answers its own). */
export const contactLid = defineEngineOperation({
  name: 'contacts.lid',
  capability: 'contacts_read',
  method: 'lidOf',
  input: ContactRef,
  result: z
    .object({
      contactId: z.string(),
      /** `<id>@lid`; null when the number is not on WhatsApp or the network tells no LID for it. */
      lid: z.string().nullable(),
    })
    .meta({ id: 'ContactLid' }),
  role: 'viewer',
  chats: { addresses: ['contactId'] },
  http: {
    method: 'GET',
    path: '/api/sessions/{sessionId}/contacts/{contactId}/lid',
    summary: 'Resolve a contact id (a phone number) to its LID',
    tag: 'Contacts',
    success: 200,
  },
  example: {
    input: { contactId: '15550002222@c.us' },
    result: { contactId: '15550002222@c.us', lid: '880001@lid' },
  },
});

const ID_PATTERN = '[0-9]{5,20}@(c\\.us|lid)';

/** `GET …/contacts/profile-pictures?ids=a,b`: the pictures of several contacts at once. */
export const contactProfilePictures = defineEngineOperation({
  name: 'contacts.profilePictures',
  capability: 'contacts_read',
  method: 'profilePictures',
  input: z.strictObject({
    ids: z
      .string()
      .max(4096)
      .regex(
        new RegExp(`^${ID_PATTERN}(,${ID_PATTERN})*$`),
        'must be contact ids (<number>@c.us or <id>@lid) separated by commas',
      )
      .meta({
        description: `Comma-separated contact ids; the first ${PICTURES_MAX_IDS} distinct ones are looked up.`,
      }),
  }),
  result: z
    .object({
      /** Each id looked up with its picture's URL, or null (none, hidden, or no answer within 8 s). */
      pictures: z.record(z.string(), z.string().nullable()),
    })
    .meta({ id: 'ContactProfilePictures' }),
  role: 'viewer',
  http: {
    method: 'GET',
    path: '/api/sessions/{sessionId}/contacts/profile-pictures',
    summary: 'Get the profile picture URLs of several contacts',
    tag: 'Contacts',
    success: 200,
  },
  example: {
    input: { ids: '15550002222@c.us,880003@lid' },
    result: {
      pictures: { '15550002222@c.us': 'https://pps.whatsapp.net/v/t61.24694-24/…', '880003@lid': null },
    },
  },
});

/** `GET …/contacts/blocked`: the ids the account has blocked, by phone number when known. */
export const blockedContacts = defineEngineOperation({
  name: 'contacts.blocked',
  capability: 'contacts_block',
  method: 'blocked',
  input: z.strictObject({}),
  result: z.array(z.string()).meta({ id: 'BlockedContacts' }),
  role: 'viewer',
  chats: { listed: (id) => id },
  http: {
    method: 'GET',
    path: '/api/sessions/{sessionId}/contacts/blocked',
    summary: 'List blocked contacts',
    tag: 'Contacts',
    success: 200,
  },
  example: { input: {}, result: ['15550002222@c.us'] },
});

/** `POST …/contacts/{contactId}/block`: the contact's messages and calls no longer reach the account. */
export const blockContact = defineEngineOperation({
  name: 'contacts.block',
  capability: 'contacts_block',
  method: 'block',
  input: ContactRef,
  result: Done('ContactBlocked'),
  role: 'operator',
  chats: { addresses: ['contactId'] },
  http: {
    method: 'POST',
    path: '/api/sessions/{sessionId}/contacts/{contactId}/block',
    summary: 'Block a contact',
    tag: 'Contacts',
    success: 200,
  },
  example: {
    input: { contactId: '15550002222@c.us' },
    result: { success: true, message: 'Contact blocked' },
  },
});

/** `DELETE …/contacts/{contactId}/block`. */
export const unblockContact = defineEngineOperation({
  name: 'contacts.unblock',
  capability: 'contacts_block',
  method: 'unblock',
  input: ContactRef,
  result: Done('ContactUnblocked'),
  role: 'operator',
  chats: { addresses: ['contactId'] },
  http: {
    method: 'DELETE',
    path: '/api/sessions/{sessionId}/contacts/{contactId}/block',
    summary: 'Unblock a contact',
    tag: 'Contacts',
    success: 200,
  },
  example: {
    input: { contactId: '15550002222@c.us' },
    result: { success: true, message: 'Contact unblocked' },
  },
});

/** A person the session knows, as the contacts routes answer. */
const Contact = z
  .object({
    /** `<number>@c.us`, or `<id>@lid` while the person's number is unknown. */
    id: z.string(),
    /** Digits, international format; null while only the LID is known. */
    number: z.string().nullable(),
    /** `<id>@lid` when known: WhatsApp may address the same person by either. */
    lid: z.string().nullable(),
    /** The name the account saved the person under. */
    name: z.string().optional(),
    /** The name the person gave themselves. */
    pushName: z.string().optional(),
    /** In the account's address book. */
    isMyContact: z.boolean(),
    isBlocked: z.boolean(),
    /** `GET …/contacts/{contactId}` only: the picture's URL, null when none, hidden, or not answered in 8 s. */
    profilePicUrl: z.string().nullable().optional(),
  })
  .meta({ id: 'Contact' });

/** The examples' contact. */
const ALICE = {
  id: '15550002222@c.us',
  number: '15550002222',
  lid: '880001@lid',
  name: 'Alice Smith',
  pushName: 'Alice',
  isMyContact: true,
  isBlocked: false,
};

/**
 * `GET …/contacts`: the people the session knows (its address book and whoever wrote to it), ordered by id. The
 * engine keeps them from what the network tells (the address book arrives at link and changes after), never the
 * gateway's data.
 */
export const listContacts = defineEngineOperation({
  name: 'contacts.list',
  capability: 'contacts_read',
  method: 'list',
  input: PageQuery,
  result: z.array(Contact).meta({ id: 'ContactList' }),
  role: 'viewer',
  chats: { listed: (contact) => contact.id },
  http: {
    method: 'GET',
    path: '/api/sessions/{sessionId}/contacts',
    summary: 'List the contacts the session knows',
    tag: 'Contacts',
    success: 200,
  },
  example: {
    input: { limit: 100, offset: 0 },
    result: [ALICE],
  },
});

/** `GET …/contacts/{contactId}`: one person, with the picture read live; 404 for one the network does not know. */
export const getContact = defineEngineOperation({
  name: 'contacts.get',
  capability: 'contacts_read',
  method: 'get',
  input: ContactRef,
  result: Contact,
  role: 'viewer',
  chats: { addresses: ['contactId'] },
  http: {
    method: 'GET',
    path: '/api/sessions/{sessionId}/contacts/{contactId}',
    summary: 'Get a contact',
    tag: 'Contacts',
    success: 200,
  },
  example: {
    input: { contactId: '15550002222@c.us' },
    result: { ...ALICE, profilePicUrl: null },
  },
});
