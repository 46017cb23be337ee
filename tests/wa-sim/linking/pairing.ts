/**
 * Linking a companion, as the server and the primary phone do it together: QR (`pair-device` refs → the phone
 * scans `ref,noise,identity,adv`) and pairing code (`link_code_companion_reg` companion_hello → the user types
 * the code → primary_hello → companion_finish). Both end in `pair-success`, the companion's countersigned
 * `pair-device-sign`, then `<stream:error code=515>` so the client reconnects and logs in.
 */
import { randomBytes } from 'node:crypto';
import { proto } from '@whiskeysockets/baileys';
import type {
  Account,
  AccountRegistry,
  ClientConnection,
  CompanionKeys,
} from '#tests/wa-sim/accounts/accounts.js';
import { issueDeviceIdentity, verifyDeviceSignature } from '#tests/wa-sim/crypto/adv.js';
import { verify, withKeyType } from '#tests/wa-sim/crypto/crypto.js';
import { badRequest, conflict, notFound, SimError } from '#tests/wa-sim/support/errors.js';
import type { SimLogger } from '#tests/wa-sim/support/log.js';
import {
  type BinaryNode,
  bytesOf,
  child,
  childBytes,
  iqResult,
  lidJid,
  makeNode,
  pnJid,
  SERVER_JID,
} from '#tests/wa-sim/transport/binary.js';
import type { ClientHello } from '#tests/wa-sim/transport/noise-server.js';
import { acceptCompanionFinish, type LinkCodeState, wrapPrimaryHello } from './link-code.js';
import type { LinkOptions, LinkResult } from './types.js';

interface PendingRegistration {
  readonly connection: ClientConnection;
  readonly keys: CompanionKeys;
  readonly refs: readonly string[];
  linkCode: LinkCodeState | undefined;
  completing: boolean;
}

const REF_COUNT = 6;
const LINK_TIMEOUT_MS = 30_000;

/** Registrations waiting for a scan or a code, and the two linking flows. */
export class Pairing {
  private readonly byConnection = new Map<ClientConnection, PendingRegistration>();
  private readonly byRef = new Map<string, PendingRegistration>();

  constructor(
    private readonly accounts: AccountRegistry,
    private readonly log: SimLogger,
  ) {}

  /** Handles a handshake carrying `devicePairingData`: keep the companion's keys and hand out QR refs. */
  register(connection: ClientConnection, hello: ClientHello): void {
    const data = hello.payload.devicePairingData;
    const keys = data && parseCompanionKeys(hello.clientStatic, data);
    if (!keys) {
      this.log.warn(`connection ${connection.id}: unusable device pairing data`);
      connection.sendFailure(400);
      return;
    }
    const refs = Array.from({ length: REF_COUNT }, () => `2@${randomBytes(18).toString('base64')}`);
    const pending: PendingRegistration = { connection, keys, refs, linkCode: undefined, completing: false };
    this.byConnection.set(connection, pending);
    for (const ref of refs) this.byRef.set(ref, pending);
    const refNodes = refs.map((ref) => makeNode('ref', {}, Buffer.from(ref)));
    const iq = makeNode('iq', { from: SERVER_JID, type: 'set', xmlns: 'md' }, [
      makeNode('pair-device', {}, refNodes),
    ]);
    connection.query(iq).catch((error) => this.log.debug('pair-device not answered', error));
  }

  /** Forgets a registration whose socket closed. */
  forget(connection: ClientConnection): void {
    const pending = this.byConnection.get(connection);
    if (!pending) return;
    this.byConnection.delete(connection);
    for (const ref of pending.refs) this.byRef.delete(ref);
    pending.linkCode?.settle(conflict('the companion disconnected before linking finished'));
  }

  /** The phone scans a QR string (6.x or 7.x form) and links that companion. */
  async scanQr(qr: string, options: LinkOptions): Promise<LinkResult> {
    const body = qr.includes('#') ? (qr.split('#')[1] ?? '') : qr;
    const [ref, noise, identity, adv] = body.split(',');
    const pending = ref ? this.byRef.get(ref) : undefined;
    if (!pending) throw notFound('no companion is showing this QR (unknown or expired ref)');
    if (!noise || !identity || !adv) throw badRequest('QR string is missing fields');
    if (!Buffer.from(noise, 'base64').equals(pending.keys.noisePublic)) {
      throw badRequest('QR noise key mismatch');
    }
    if (!Buffer.from(identity, 'base64').equals(pending.keys.identityPublic)) {
      throw badRequest('QR identity key mismatch');
    }
    const account = this.accounts.getOrCreate(
      options.phone ?? this.accounts.allocatePhone(),
      options.pushName,
    );
    return this.complete(pending, account, Buffer.from(adv, 'base64'));
  }

  /** Answers a `link_code_companion_reg` iq from a registering companion. */
  async handleLinkCodeIq(connection: ClientConnection, iq: BinaryNode): Promise<BinaryNode> {
    const pending = this.byConnection.get(connection);
    const reg = child(iq, 'link_code_companion_reg');
    if (!pending || !reg) throw badRequest('link code request outside registration');
    if (reg.attrs.stage === 'companion_hello') {
      const phone = reg.attrs.jid?.split('@')[0] ?? '';
      const wrapped = childBytes(reg, 'link_code_pairing_wrapped_companion_ephemeral_pub');
      if (!phone || !wrapped || wrapped.length < 80) throw badRequest('malformed companion_hello');
      pending.linkCode?.settle(conflict('superseded by a new pairing-code request'));
      const ref = randomBytes(16).toString('hex');
      pending.linkCode = { phone, ref, wrapped, primary: undefined, settle: () => undefined };
      return iqResult(iq, [
        makeNode('link_code_companion_reg', {}, [makeNode('link_code_pairing_ref', {}, Buffer.from(ref))]),
      ]);
    }
    if (reg.attrs.stage === 'companion_finish') {
      const state = pending.linkCode;
      if (!state?.primary) throw badRequest('companion_finish before the code was entered');
      const bundle = childBytes(reg, 'link_code_pairing_wrapped_key_bundle');
      const companionIdentity = childBytes(reg, 'companion_identity_public');
      const advSecret =
        bundle && companionIdentity && acceptCompanionFinish(state, bundle, companionIdentity);
      if (!advSecret || !companionIdentity?.equals(pending.keys.identityPublic)) {
        state.settle(badRequest('pairing code mismatch'));
        throw badRequest('key bundle does not open');
      }
      const account = state.primary.account;
      // Answer the iq first; pair-success follows on the same socket.
      setImmediate(() => {
        this.complete(pending, account, advSecret).then(
          (result) => state.settle(undefined, result),
          (error: unknown) => state.settle(error instanceof Error ? error : new Error(String(error))),
        );
      });
      return iqResult(iq);
    }
    throw badRequest(`unknown link code stage ${reg.attrs.stage ?? ''}`);
  }

  /** The user types `code` on the phone of `phone`: send primary_hello and wait for the link to finish. */
  async enterPairingCode(phone: string, code: string, pushName?: string): Promise<LinkResult> {
    const pending = [...this.byConnection.values()].find((entry) => entry.linkCode?.phone === phone);
    const state = pending?.linkCode;
    if (!pending || !state) throw notFound(`no companion asked for a pairing code for ${phone}`);
    if (state.primary) throw conflict('a code was already entered for this request');
    const account = this.accounts.getOrCreate(phone, pushName);
    const done = new Promise<LinkResult>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new SimError(504, 'the companion did not finish linking')),
        LINK_TIMEOUT_MS,
      );
      state.settle = (error, result) => {
        clearTimeout(timer);
        if (error || !result) reject(error ?? new Error('link failed'));
        else resolve(result);
      };
    });
    const primaryHello = await wrapPrimaryHello(state, account, code);
    pending.connection.send(primaryHello);
    return done;
  }

  private async complete(
    pending: PendingRegistration,
    account: Account,
    advSecret: Buffer,
  ): Promise<LinkResult> {
    if (pending.completing) throw conflict('this companion is already being linked');
    pending.completing = true;
    const device = this.accounts.addCompanion(account, pending.keys);
    const phoneIdentity = account.primary.identityKeyPair;
    const issued = issueDeviceIdentity(
      phoneIdentity,
      pending.keys.identityPublic,
      device.keyIndex,
      advSecret,
    );
    const jid = pnJid(account.phone, device.deviceId);
    const lid = lidJid(account.lid, device.deviceId);
    try {
      const reply = await pending.connection
        .query(
          makeNode('iq', { from: SERVER_JID, type: 'set', xmlns: 'md' }, [
            makeNode('pair-success', {}, [
              makeNode('device-identity', {}, issued.container),
              makeNode('platform', { name: 'android' }),
              makeNode('device', { jid, lid }),
            ]),
          ]),
        )
        .catch((error: unknown) => {
          throw new SimError(504, `the companion did not answer pair-success: ${String(error)}`);
        });
      const signed = bytesOf(child(child(reply, 'pair-device-sign'), 'device-identity'));
      const keys = pending.keys;
      if (
        !signed ||
        !verifyDeviceSignature(signed, issued.details, keys.identityPublic, phoneIdentity.public)
      ) {
        throw badRequest('companion device signature does not verify');
      }
    } catch (error) {
      account.companions.delete(device.deviceId);
      pending.completing = false;
      throw error;
    }
    // Whoever waits on a pairing code is settled by the caller with this result, not by forget().
    pending.linkCode = undefined;
    this.forget(pending.connection);
    this.log.info(`linked ${jid} (${pending.keys.platform})`);
    pending.connection.endWithStreamError('515');
    return { phone: account.phone, jid, lid, deviceId: device.deviceId };
  }
}

type PairingData = NonNullable<ClientHello['payload']['devicePairingData']>;

function platformOf(deviceProps: Uint8Array | null | undefined): string {
  try {
    return (deviceProps && proto.DeviceProps.decode(deviceProps).os) || 'companion';
  } catch {
    return 'companion';
  }
}

function parseCompanionKeys(noisePublic: Buffer, data: PairingData): CompanionKeys | undefined {
  const { eRegid, eIdent, eSkeyId, eSkeyVal, eSkeySig } = data;
  if (!eRegid || !eIdent || !eSkeyId || !eSkeyVal || !eSkeySig || eIdent.length !== 32) return undefined;
  const signedPreKey = {
    keyId: Buffer.from(eSkeyId).readUIntBE(0, eSkeyId.length),
    publicKey: Buffer.from(eSkeyVal),
    signature: Buffer.from(eSkeySig),
  };
  // The phone would not link a companion whose signed pre-key its identity did not sign.
  if (!verify(eIdent, withKeyType(signedPreKey.publicKey), signedPreKey.signature)) return undefined;
  return {
    noisePublic,
    identityPublic: Buffer.from(eIdent),
    registrationId: Buffer.from(eRegid).readUIntBE(0, eRegid.length),
    signedPreKey,
    platform: platformOf(data.deviceProps),
  };
}
