/** The server Noise handshake against Baileys' own client-side noise handler, without sockets. */
import { Curve, decodeBinaryNode, makeNoiseHandler, NOISE_WA_HEADER, proto } from '@whiskeysockets/baileys';
import pino from 'pino';
import { createCertChain } from '#tests/wa-sim/crypto/cert-chain.js';
import { generateKeyPair } from '#tests/wa-sim/crypto/crypto.js';
import { encodeNode, makeNode } from './binary.js';
import { NoiseServer } from './noise-server.js';

describe('NoiseServer', () => {
  it('completes Noise XX with the Baileys handler and carries frames both ways', async () => {
    const root = generateKeyPair();
    const serverStatic = generateKeyPair();
    const server = new NoiseServer(serverStatic, createCertChain(root, serverStatic.public).encoded);
    const ephemeral = Curve.generateKeyPair();
    const noiseKey = Curve.generateKeyPair();
    const client = makeNoiseHandler({
      keyPair: ephemeral,
      NOISE_HEADER: NOISE_WA_HEADER,
      logger: pino({ level: 'silent' }),
      routingInfo: undefined,
    });

    const hello = proto.HandshakeMessage.encode({ clientHello: { ephemeral: ephemeral.public } }).finish();
    const [helloFrame] = server.receive(client.encodeFrame(hello));
    const serverHello = server.respondToHello(helloFrame ?? Buffer.alloc(0));
    const handshakeFrames: Uint8Array[] = [];
    await client.decodeFrame(serverHello, (frame) => {
      if (frame instanceof Uint8Array) handshakeFrames.push(frame);
    });
    const keyEnc = client.processHandshake(
      proto.HandshakeMessage.decode(handshakeFrames[0] ?? new Uint8Array()),
      noiseKey,
    );
    const payload = client.encrypt(
      proto.ClientPayload.encode({ username: 15550000000, device: 1, passive: true }).finish(),
    );
    const finish = proto.HandshakeMessage.encode({ clientFinish: { static: keyEnc, payload } }).finish();
    const [finishFrame] = server.receive(client.encodeFrame(finish));
    const accepted = server.acceptFinish(finishFrame ?? Buffer.alloc(0));
    await client.finishInit();

    expect(accepted.clientStatic.equals(Buffer.from(noiseKey.public))).toBe(true);
    expect(String(accepted.payload.username)).toBe('15550000000');
    expect(server.ready).toBe(true);

    const received: string[] = [];
    await client.decodeFrame(server.encodeFrame(encodeNode(makeNode('success', { t: '1' }))), (frame) => {
      if (!(frame instanceof Uint8Array)) received.push(frame.tag);
    });
    expect(received).toEqual(['success']);
    const [plain] = server.receive(
      client.encodeFrame(encodeNode(makeNode('iq', { id: '1', type: 'get', xmlns: 'w:p' }))),
    );
    expect((await decodeBinaryNode(plain ?? Buffer.alloc(0))).attrs).toMatchObject({ xmlns: 'w:p' });
  });
});
