/**
 * The contacts operations (openwa-facts §1.3): what the session's account knows of other WhatsApp users, read
 * live from the engine (never stored by the gateway). A person appears by phone number (`<number>@c.us`) and, when
 * either side knows the mapping, by LID (`<id>@lid`) too.
 */
import { z } from 'zod';
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
