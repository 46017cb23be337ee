/**
 * Our patch of libsignal (the JavaScript port Baileys uses, and the simulator's devices), against two real devices.
 *
 * Two devices that start a Signal session with each other at the same moment (each sends its first message before
 * the other's arrives) end up with two sessions each, one of them closed. Every later message then decrypts with one
 * of the two, and libsignal tries them in turn. The port used to try a session in place: a message from the other
 * session stepped the ratchet of the one tried first (a new sending chain derived from the wrong remote key) before
 * its MAC failed, and that damage was stored with the record once the right session had decrypted it, so every
 * message sent afterwards on the damaged session was undecryptable for good. The patch tries each session on a copy
 * and keeps only the copy that decrypted, promoted to the open session, as libsignal's reference implementation does.
 *
 * A sending chain that never sent has counter -1, which a message's `previousCounter` (uint32) carried as
 * 4294967295; the port on the other end then refused every message of the new chain ("Over 2000 messages into the
 * future"). The patch sends 0 there, as the reference implementation does, and reads 4294967295 as "none".
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { SignalDevice } from '#tests/wa-sim/crypto/signal-device.js';

const A = { user: '15550001111', device: 0 };
const B = { user: '15550002222', device: 0 };

async function deliver(
  from: SignalDevice,
  to: SignalDevice,
  fromAddress: typeof A,
  toAddress: typeof A,
  text: string,
) {
  const sent = await from.encrypt(toAddress, Buffer.from(text));
  return (await to.decrypt(fromAddress, sent.type, sent.ciphertext)).toString();
}

/** Both devices open a session with the other at once; each first message crosses the other's in flight. */
async function simultaneousStart() {
  const alice = new SignalDevice();
  const bob = new SignalDevice();
  await alice.startSession(B, bob.createBundle());
  await bob.startSession(A, alice.createBundle());
  const fromAlice = await alice.encrypt(B, Buffer.from('alice 0'));
  const fromBob = await bob.encrypt(A, Buffer.from('bob 0'));
  expect((await bob.decrypt(A, fromAlice.type, fromAlice.ciphertext)).toString()).toBe('alice 0');
  expect((await alice.decrypt(B, fromBob.type, fromBob.ciphertext)).toString()).toBe('bob 0');
  return { alice, bob };
}

/** A fixed pseudo-random draw in [0, 1) for a step of a numbered schedule, so a failing interleaving replays. */
const draw = (schedule: number, step: number) =>
  createHash('sha256').update(`${schedule}:${step}`).digest().readUInt16BE(0) / 65_536;

/** The live session records a simulated device keeps (its storage hands them to libsignal as they are). */
const sessionsOf = (device: SignalDevice) =>
  (
    device as unknown as {
      sessions: Map<string, { getOpenSession(): { currentRatchet: { previousCounter: number } } }>;
    }
  ).sessions;

/** libsignal's own WhisperMessage codec (its protobufs module ships no typings). */
const { WhisperMessage } = createRequire(import.meta.url)('libsignal/src/protobufs.js') as {
  WhisperMessage: { decode(bytes: Uint8Array): { previousCounter: number } };
};

/** The previousCounter of the WhisperMessage in a `msg`: version byte, message, 8-byte MAC. */
const previousCounterOf = (ciphertext: Buffer) =>
  WhisperMessage.decode(ciphertext.subarray(1, -8)).previousCounter;

describe('A message after a ratchet step whose previous sending chain never sent', () => {
  async function afterOneStep() {
    const alice = new SignalDevice();
    const bob = new SignalDevice();
    await alice.startSession(B, bob.createBundle());
    expect(await deliver(alice, bob, A, B, 'hi')).toBe('hi');
    expect(await deliver(bob, alice, B, A, 'hey')).toBe('hey');
    const open = sessionsOf(alice).get(`${B.user}.${B.device}`)?.getOpenSession();
    if (!open) throw new Error('alice has no open session with bob');
    return { alice, bob, ratchet: open.currentRatchet };
  }

  it('carries previousCounter 0 and is decrypted', async () => {
    const { alice, bob, ratchet } = await afterOneStep();
    ratchet.previousCounter = -1;
    const sent = await alice.encrypt(B, Buffer.from('after two steps'));
    expect(previousCounterOf(sent.ciphertext)).toBe(0);
    expect((await bob.decrypt(A, sent.type, sent.ciphertext)).toString()).toBe('after two steps');
  });

  it('from an unpatched sender (previousCounter 4294967295) is decrypted too', async () => {
    const { alice, bob, ratchet } = await afterOneStep();
    ratchet.previousCounter = 0xffffffff;
    const sent = await alice.encrypt(B, Buffer.from('from an old libsignal'));
    expect(previousCounterOf(sent.ciphertext)).toBe(0xffffffff);
    expect((await bob.decrypt(A, sent.type, sent.ciphertext)).toString()).toBe('from an old libsignal');
    expect(await deliver(bob, alice, B, A, 'answer')).toBe('answer');
  });
});

describe('Signal sessions started by both devices at once', () => {
  it('carry every later message both ways, in turns', async () => {
    const { alice, bob } = await simultaneousStart();
    const received: string[] = [];
    for (let i = 1; i <= 20; i++) {
      received.push(await deliver(alice, bob, A, B, `alice ${i}`));
      received.push(await deliver(bob, alice, B, A, `bob ${i}`));
    }
    expect(received).toEqual(Array.from({ length: 20 }, (_, n) => [`alice ${n + 1}`, `bob ${n + 1}`]).flat());
  });

  it('carry messages that cross in flight, several at a time', async () => {
    const { alice, bob } = await simultaneousStart();
    for (let round = 0; round < 10; round++) {
      const fromAlice = [];
      const fromBob = [];
      for (let i = 0; i < 3; i++) {
        fromAlice.push(await alice.encrypt(B, Buffer.from(`alice ${round}.${i}`)));
        fromBob.push(await bob.encrypt(A, Buffer.from(`bob ${round}.${i}`)));
      }
      for (const [i, sent] of fromAlice.entries())
        expect((await bob.decrypt(A, sent.type, sent.ciphertext)).toString()).toBe(`alice ${round}.${i}`);
      for (const [i, sent] of fromBob.entries())
        expect((await alice.decrypt(B, sent.type, sent.ciphertext)).toString()).toBe(`bob ${round}.${i}`);
    }
  });

  it('carry every message of any interleaving of sends and deliveries', async () => {
    for (let seed = 1; seed <= 20; seed++) {
      const { alice, bob } = await simultaneousStart();
      const toBob: { type: 'pkmsg' | 'msg'; ciphertext: Buffer; text: string }[] = [];
      const toAlice: typeof toBob = [];
      let sent = 0;
      for (let step = 0; step < 120; step++) {
        const pick = draw(seed, step);
        if (pick < 0.25)
          toBob.push({ ...(await alice.encrypt(B, Buffer.from(`a${sent}`))), text: `a${sent++}` });
        else if (pick < 0.5)
          toAlice.push({ ...(await bob.encrypt(A, Buffer.from(`b${sent}`))), text: `b${sent++}` });
        else {
          const [inbox, device, from] = pick < 0.75 ? [toBob, bob, A] : [toAlice, alice, B];
          const next = inbox.shift();
          if (next)
            expect((await device.decrypt(from, next.type, next.ciphertext)).toString()).toBe(next.text);
        }
      }
    }
  });

  it('refuse a message delivered twice and leave every session as it was', async () => {
    const { alice, bob } = await simultaneousStart();
    await deliver(alice, bob, A, B, 'alice 1');
    const again = await bob.encrypt(A, Buffer.from('bob 1'));
    expect((await alice.decrypt(B, again.type, again.ciphertext)).toString()).toBe('bob 1');
    await expect(alice.decrypt(B, again.type, again.ciphertext)).rejects.toThrow();

    expect(await deliver(alice, bob, A, B, 'alice 2')).toBe('alice 2');
    expect(await deliver(bob, alice, B, A, 'bob 2')).toBe('bob 2');
  });
});
