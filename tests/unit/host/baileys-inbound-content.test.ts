/**
 * The kinds a contact's message is received as (baileys-inbound-content.ts), through `inboundFromBaileys`:
 * locations, contact cards (one or several) and replies, each with its metadata; texts inside ephemeral wrappers;
 * and the quoted message of any kind. Fixtures are Baileys upserts in the shapes the simulator's contacts send.
 */
import { describe, expect, it } from '@jest/globals';
import type { proto, WAMessage } from '@whiskeysockets/baileys';
import { inboundFromBaileys } from '#host/engines/baileys/baileys-messages.js';

const OWN = '15550001111';
const CONTACT = '15557770001@s.whatsapp.net';
const GROUP = '120363012345678901@g.us';
const VCARD = 'BEGIN:VCARD\nVERSION:3.0\nFN:Dana Doe\nTEL;waid=15550009099:+1 555 000 9099\nEND:VCARD';
const VCARD_2 = 'BEGIN:VCARD\nVERSION:3.0\nFN:Eli Roe\nEND:VCARD';

/** What `inboundFromBaileys` makes of `content`, sent by the contact 1:1 (or in `chat` by the contact). */
function received(content: proto.IMessage, chat = CONTACT) {
  const participant = chat === GROUP ? { participant: CONTACT } : {};
  const upsert = {
    key: { id: 'K1', remoteJid: chat, fromMe: false, ...participant },
    messageTimestamp: 1_790_000_000,
    message: content,
  } as WAMessage;
  return inboundFromBaileys(upsert, OWN);
}

describe('locations', () => {
  it('stores a named location with its name as body and the place as metadata', () => {
    const locationMessage = {
      degreesLatitude: 52.52,
      degreesLongitude: 13.405,
      name: 'Alexanderplatz',
      address: 'Berlin',
      url: 'https://maps.example/alex',
    };
    expect(received({ locationMessage })).toMatchObject({
      type: 'location',
      body: 'Alexanderplatz',
      metadata: {
        location: {
          latitude: 52.52,
          longitude: 13.405,
          description: 'Alexanderplatz',
          address: 'Berlin',
          url: 'https://maps.example/alex',
        },
      },
    });
  });

  it('stores an unnamed location with a null body and only its coordinates', () => {
    const inbound = received({ locationMessage: { degreesLatitude: 0, degreesLongitude: -0.1 } });
    expect(inbound).toMatchObject({ type: 'location', body: null });
    expect(inbound?.metadata).toEqual({ location: { latitude: 0, longitude: -0.1 } });
  });
});

describe('contact cards', () => {
  it('stores one card with its display name as body and its vCard', () => {
    expect(received({ contactMessage: { displayName: 'Dana Doe', vcard: VCARD } })).toMatchObject({
      type: 'contact',
      body: 'Dana Doe',
      metadata: { vCards: [VCARD] },
    });
  });

  it('stores several cards as one message: names joined, every vCard', () => {
    const contactsArrayMessage = {
      displayName: '2 contacts',
      contacts: [
        { displayName: 'Dana Doe', vcard: VCARD },
        { displayName: 'Eli Roe', vcard: VCARD_2 },
      ],
    };
    expect(received({ contactsArrayMessage })).toMatchObject({
      type: 'contact',
      body: 'Dana Doe, Eli Roe',
      metadata: { vCards: [VCARD, VCARD_2] },
    });
  });

  it('stores nothing for a card list without cards', () => {
    expect(received({ contactsArrayMessage: { displayName: 'none', contacts: [] } })).toBeNull();
  });
});

describe('replies', () => {
  it('stores a reply as a text quoting the message by id, with its text and neutral sender', () => {
    const contextInfo = {
      stanzaId: '3EB0QUOTED',
      participant: `${OWN}:2@s.whatsapp.net`,
      quotedMessage: { conversation: 'are you there?' },
    };
    const inbound = received({ extendedTextMessage: { text: 'yes', contextInfo } });
    expect(inbound).toMatchObject({ type: 'text', body: 'yes' });
    expect(inbound?.metadata).toEqual({
      quotedMessage: { id: '3EB0QUOTED', body: 'are you there?', participant: `${OWN}@c.us` },
    });
  });

  it('quotes a location by its name, an image by its caption, and a message whose copy is missing with a null body', () => {
    const quote = (quotedMessage?: proto.IMessage) =>
      received({
        extendedTextMessage: { text: 'ok', contextInfo: { stanzaId: 'Q1', quotedMessage } },
      })?.metadata?.quotedMessage;
    expect(quote({ locationMessage: { degreesLatitude: 1, degreesLongitude: 2, name: 'Cafe' } })).toEqual({
      id: 'Q1',
      body: 'Cafe',
    });
    expect(quote()).toEqual({ id: 'Q1', body: null });
    expect(quote({ imageMessage: { caption: 'pic' } })).toEqual({ id: 'Q1', body: 'pic' });
    expect(quote({ stickerMessage: {} })).toEqual({ id: 'Q1', body: null });
  });

  it('reads the quote of a location or contact card the same way', () => {
    const contextInfo = {
      stanzaId: 'Q2',
      participant: CONTACT,
      quotedMessage: { extendedTextMessage: { text: 'where?' } },
    };
    const location = received({ locationMessage: { degreesLatitude: 1, degreesLongitude: 2, contextInfo } });
    const card = received({ contactMessage: { displayName: 'Dana', vcard: VCARD, contextInfo } });
    const quotedMessage = { id: 'Q2', body: 'where?', participant: '15557770001@c.us' };
    expect(location?.metadata).toEqual({ location: { latitude: 1, longitude: 2 }, quotedMessage });
    expect(card?.metadata).toEqual({ vCards: [VCARD], quotedMessage });
  });

  it('quotes nothing for context without a quoted id (mentions, forwarding)', () => {
    const contextInfo = { mentionedJid: [CONTACT], isForwarded: true };
    const inbound = received({ extendedTextMessage: { text: 'hi @15557770001', contextInfo } });
    expect(inbound).toMatchObject({ type: 'text', body: 'hi @15557770001' });
    expect(inbound).not.toHaveProperty('metadata');
  });

  it('stores a group reply with the group as chat and the replier as author', () => {
    const contextInfo = {
      stanzaId: 'Q3',
      participant: `${OWN}@s.whatsapp.net`,
      quotedMessage: { conversation: 'x' },
    };
    expect(received({ extendedTextMessage: { text: 'me', contextInfo } }, GROUP)).toMatchObject({
      chatId: GROUP,
      author: '15557770001@c.us',
      type: 'text',
      metadata: { quotedMessage: { id: 'Q3', body: 'x', participant: `${OWN}@c.us` } },
    });
  });
});

describe('wrappers', () => {
  it('unwraps a disappearing-mode text and a view-once location', () => {
    expect(received({ ephemeralMessage: { message: { conversation: 'vanishing' } } })).toMatchObject({
      type: 'text',
      body: 'vanishing',
    });
    const viewOnce = {
      viewOnceMessage: { message: { locationMessage: { degreesLatitude: 3, degreesLongitude: 4 } } },
    };
    expect(received(viewOnce)).toMatchObject({ type: 'location', metadata: { location: { latitude: 3 } } });
  });

  it('keeps a plain text free of metadata', () => {
    expect(received({ conversation: 'hi' })).not.toHaveProperty('metadata');
  });
});
