/**
 * A witness's Ed25519 key and its cosignatures (C2SP tlog-cosignature v1, https://c2sp.org/tlog-cosignature):
 * the signature line is `— <name> base64(key ID ‖ 8-byte big-endian Unix time ‖ Ed25519 signature)`,
 * key ID = SHA-256(name ‖ 0x0A ‖ 0x04 ‖ public key)[:4], the signed message `cosignature/v1\ntime <t>\n`
 * followed by the checkpoint body. The key comes from `seed` (standard base64 of a 32-byte seed, or a
 * PKCS#8 PEM Ed25519 private key), else from `file`, created (mode 0600) at first start.
 */
import { sign, type KeyObject } from 'node:crypto';
import {
  checkKeyName,
  COSIGNATURE_TYPE,
  cosignatureMessage,
  noteKeyId,
  signatureLine,
  timeBytes,
} from '../../common/ledger/note';
import { cosignerVkey } from '../../common/ledger/witness';
import { ed25519ConfiguredKey, ed25519PrivateKey, ed25519PublicKey } from '../ledger/ed25519Key';

export { ed25519PrivateKey };

/** A cosigner key. */
export interface CosignerKey {
  name: string;
  privateKey: KeyObject;
  publicKey: Uint8Array;
  keyId: Uint8Array;
  /** `<name>+<key ID>+<base64(0x04 ‖ public key)>`. */
  vkey: string;
  /** `env` or the key file. */
  source: string;
}

/** The cosigner key of `name` from a private key. */
export async function cosignerKey(name: string, privateKey: KeyObject, source: string): Promise<CosignerKey> {
  checkKeyName(name);
  const publicKey = ed25519PublicKey(privateKey);
  return {
    name,
    privateKey,
    publicKey,
    keyId: await noteKeyId(name, publicKey, COSIGNATURE_TYPE),
    vkey: await cosignerVkey(name, publicKey),
    source,
  };
}

/** Loads the key: `seed` when given, else `file` (created at first use). */
export async function loadCosignerKey(opts: {
  name: string;
  seed?: string;
  file: string;
}): Promise<CosignerKey> {
  const { key, source } = ed25519ConfiguredKey(opts.seed, 'WITNESS_KEY', opts.file);
  return cosignerKey(opts.name, key, source);
}

/** The cosignature line (ending in `\n`) of `key` on a checkpoint body at `time` (Unix seconds, > 0). */
export function cosign(key: CosignerKey, body: string, time: number): string {
  if (!Number.isSafeInteger(time) || time <= 0) throw new Error('a cosignature time is a positive integer');
  const sig = sign(null, Buffer.from(cosignatureMessage(body, time)), key.privateKey);
  const payload = new Uint8Array(72);
  payload.set(timeBytes(time), 0);
  payload.set(sig, 8);
  return signatureLine(key.name, key.keyId, payload);
}
