import { describe, expect, it } from '@jest/globals';
import { proto, type WAMessage } from '@whiskeysockets/baileys';
import { toBaileysJid, toNeutralJid } from '#host/engines/baileys/baileys-jids.js';
import {
  inboundFromBaileys,
  statusFromBaileys,
  statusFromOwnUpsert,
} from '#host/engines/baileys/baileys-messages.js';

const message = (overrides: Partial<WAMessage> & { key: WAMessage['key'] }): WAMessage =>
  ({ messageTimestamp: 1_790_000_000, message: { conversation: 'hi' }, ...overrides }) as WAMessage;

describe('JID translation', () => {
  it.each([
    ['15550001111@s.whatsapp.net', '15550001111@c.us'],
    ['15550001111:3@s.whatsapp.net', '15550001111@c.us'],
    ['120363012345678901@g.us', '120363012345678901@g.us'],
    ['816147395166981@lid', '816147395166981@lid'],
  ])('neutralises %s as %s', (jid, neutral) => {
    expect(toNeutralJid(jid)).toBe(neutral);
  });

  it('turns neutral personal ids back into Baileys JIDs and leaves groups alone', () => {
    expect(toBaileysJid('15550001111@c.us')).toBe('15550001111@s.whatsapp.net');
    expect(toBaileysJid('120363012345678901@g.us')).toBe('120363012345678901@g.us');
  });
});

describe('inboundFromBaileys', () => {
  it('maps a 1:1 text with the phone number form of a LID-first sender', () => {
    const inbound = inboundFromBaileys(
      message({
        key: {
          id: 'ABC',
          remoteJid: '816147395166981@lid',
          remoteJidAlt: '15557770001@s.whatsapp.net',
          fromMe: false,
        },
        pushName: 'Ann',
        message: { extendedTextMessage: { text: 'long text' } },
      }),
      '15550001111',
    );
    expect(inbound).toEqual({
      waMessageId: 'ABC',
      chatId: '15557770001@c.us',
      from: '15557770001@c.us',
      to: '15550001111@c.us',
      author: null,
      body: 'long text',
      type: 'text',
      timestamp: 1_790_000_000,
      pushName: 'Ann',
    });
  });

  it('maps a group text with the group as chat and sender and the participant as author', () => {
    const inbound = inboundFromBaileys(
      message({
        key: {
          id: 'G1',
          remoteJid: '120363012345678901@g.us',
          participant: '99887766@lid',
          participantAlt: '15557770002:0@s.whatsapp.net',
          fromMe: false,
        },
      }),
      '15550001111',
    );
    expect(inbound).toMatchObject({
      chatId: '120363012345678901@g.us',
      from: '120363012345678901@g.us',
      author: '15557770002@c.us',
    });
  });

  it('ignores our own messages and status broadcasts, and reads media with its caption and file', () => {
    const own = message({ key: { id: 'X', remoteJid: '1555@s.whatsapp.net', fromMe: true } });
    const status = message({ key: { id: 'Y', remoteJid: 'status@broadcast', fromMe: false } });
    expect([own, status].map((m) => inboundFromBaileys(m, '1'))).toEqual([null, null]);
    const image = message({
      key: { id: 'Z', remoteJid: '15557770001@s.whatsapp.net', fromMe: false },
      message: { imageMessage: { caption: 'look', mimetype: 'image/jpeg', fileLength: 1234 } },
    });
    expect(inboundFromBaileys(image, '1')).toMatchObject({
      type: 'image',
      body: 'look',
      metadata: { media: { mimetype: 'image/jpeg', sizeBytes: 1234 } },
    });
    // View-once media is unwrapped like any other: the gateway keeps what it received.
    const viewOnce = message({
      key: { id: 'V1', remoteJid: '15557770001@s.whatsapp.net', fromMe: false },
      message: { viewOnceMessage: { message: { imageMessage: { caption: 'once' } } } },
    });
    expect(inboundFromBaileys(viewOnce, '1')).toMatchObject({ type: 'image', body: 'once' });
  });

  // What Baileys upserts besides contacts' messages, in the shapes messages-recv.js builds them (most of them as
  // `append`, the type offline messages also arrive with).
  it.each<[string, WAMessage]>([
    [
      'a group notification (a stub without content)',
      {
        key: { id: 'N1', remoteJid: '120363012345678901@g.us', fromMe: false },
        messageStubType: 20,
      } as WAMessage,
    ],
    [
      'a newsletter post (plaintext)',
      message({
        key: { id: 'NL1', remoteJid: '120363999999999999@newsletter', fromMe: false },
        message: { conversation: 'news' },
      }),
    ],
    [
      'a broadcast list copy',
      message({ key: { id: 'B1', remoteJid: '1700000000@broadcast', fromMe: false } }),
    ],
    [
      'an offline call stub',
      message({
        key: { id: 'C1', remoteJid: '15557770001@s.whatsapp.net', fromMe: false },
        message: { call: { callKey: new Uint8Array([1]) } },
      }),
    ],
    [
      'a history-sync notice from the phone',
      message({
        key: { id: 'H1', remoteJid: '15550001111@s.whatsapp.net', fromMe: true },
        message: {
          protocolMessage: {
            type: proto.Message.ProtocolMessage.Type.HISTORY_SYNC_NOTIFICATION,
            historySyncNotification: { syncType: proto.Message.HistorySyncType.RECENT },
          },
        },
      }),
    ],
    [
      'a protocol message from a contact (a revoke)',
      message({
        key: { id: 'P1', remoteJid: '15557770001@s.whatsapp.net', fromMe: false },
        message: { protocolMessage: { type: proto.Message.ProtocolMessage.Type.REVOKE } },
      }),
    ],
    [
      'a reaction',
      message({
        key: { id: 'R1', remoteJid: '15557770001@s.whatsapp.net', fromMe: false },
        message: {
          reactionMessage: {
            key: { remoteJid: '15557770001@s.whatsapp.net', id: 'T1', fromMe: true },
            text: '👍',
          },
        },
      }),
    ],
    [
      'an edit, wrapped as phones send it',
      message({
        key: { id: 'E1', remoteJid: '15557770001@s.whatsapp.net', fromMe: false },
        message: {
          editedMessage: {
            message: {
              protocolMessage: {
                type: proto.Message.ProtocolMessage.Type.MESSAGE_EDIT,
                key: { id: 'T2' },
                editedMessage: { conversation: 'new' },
              },
            },
          },
        },
      }),
    ],
    [
      'a status a contact posted to a group',
      message({
        key: { id: 'GS1', remoteJid: '120363012345678901@g.us', participant: '15557770001@s.whatsapp.net' },
        message: { groupStatusMessage: { message: { conversation: 'my status' } } },
      }),
    ],
    [
      'a text the phone sent to a contact',
      message({ key: { id: 'O1', remoteJid: '15557770001@s.whatsapp.net', fromMe: true } }),
    ],
  ])('stores no inbound message for %s', (_, upserted) => {
    expect(inboundFromBaileys(upserted, '15550001111')).toBeNull();
  });
});

describe('delivery states', () => {
  const S = proto.WebMessageInfo.Status;
  const key = { id: 'M1', remoteJid: '15557770001@s.whatsapp.net', fromMe: true };

  it.each([
    [S.SERVER_ACK, 'sent'],
    [S.DELIVERY_ACK, 'delivered'],
    [S.READ, 'read'],
    [S.PLAYED, 'read'],
    [S.ERROR, 'failed'],
  ])('maps WhatsApp status %s to %s', (code, status) => {
    expect(statusFromBaileys({ key, update: { status: code } })).toEqual({
      waMessageId: 'M1',
      chatId: '15557770001@c.us',
      status,
    });
  });

  it('ignores pending, other people’s messages and updates without a status', () => {
    expect(statusFromBaileys({ key, update: { status: S.PENDING } })).toBeNull();
    expect(statusFromBaileys({ key: { ...key, fromMe: false }, update: { status: S.READ } })).toBeNull();
    expect(statusFromBaileys({ key, update: {} })).toBeNull();
  });

  it('reads the status Baileys folded into the upsert of our own message', () => {
    expect(statusFromOwnUpsert(message({ key, status: S.DELIVERY_ACK }))).toMatchObject({
      status: 'delivered',
    });
  });
});
