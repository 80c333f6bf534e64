/**
 * A witness's Ed25519 key and its cosignatures (C2SP tlog-cosignature v1, https://c2sp.org/tlog-cosignature):
 * the signature line is `— <name> base64(key ID ‖ 8-byte big-endian Unix time ‖ Ed25519 signature)`,
 * key ID = SHA-256(name ‖ 0x0A ‖ 0x04 ‖ public key)[:4], the signed message `cosignature/v1\ntime <t>\n`
 * followed by the checkpoint body. The key comes from `seed` (standard base64 of a 32-byte seed, or a
 * PKCS#8 PEM Ed25519 private key), else from `file`, created (mode 0600) at first start.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { fromHex } from '../../common/ledger/hex';
import {
  checkKeyName,
  COSIGNATURE_TYPE,
  cosignatureMessage,
  fromBase64,
  noteKeyId,
  signatureLine,
  timeBytes,
} from '../../common/ledger/note';
import { cosignerVkey } from '../../common/ledger/witness';

/** PKCS#8 DER prefix of an Ed25519 private key (RFC 8410), followed by the 32-byte seed. */
const PKCS8_ED25519_PREFIX = fromHex('302e020100300506032b657004220420');

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

/** An Ed25519 private key from a base64 seed or PKCS#8 PEM text. @throws Error naming `what`. */
export function ed25519PrivateKey(text: string, what: string): KeyObject {
  const t = text.trim().replace(/\\n/g, '\n');
  let key: KeyObject;
  try {
    if (t.startsWith('-----BEGIN')) key = createPrivateKey(t);
    else {
      const seed = fromBase64(t);
      if (seed.length !== 32) throw new Error('a seed is 32 bytes');
      key = createPrivateKey({
        key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]),
        format: 'der',
        type: 'pkcs8',
      });
    }
  } catch (err) {
    throw new Error(
      `${what} must be a PKCS#8 PEM Ed25519 private key or the base64 of a 32-byte seed: ${(err as Error).message}`,
    );
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`${what} must be an Ed25519 key`);
  return key;
}

/** The cosigner key of `name` from a private key. */
export async function cosignerKey(name: string, privateKey: KeyObject, source: string): Promise<CosignerKey> {
  checkKeyName(name);
  const publicKey = new Uint8Array(
    Buffer.from(createPublicKey(privateKey).export({ format: 'jwk' }).x!, 'base64url'),
  );
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
  if (opts.seed)
    return cosignerKey(opts.name, ed25519PrivateKey(opts.seed, 'WITNESS_KEY'), 'env WITNESS_KEY');
  if (!existsSync(opts.file)) {
    mkdirSync(dirname(opts.file), { recursive: true });
    const { privateKey } = generateKeyPairSync('ed25519');
    writeFileSync(opts.file, privateKey.export({ format: 'pem', type: 'pkcs8' }), {
      mode: 0o600,
      flag: 'wx',
    });
    chmodSync(opts.file, 0o600);
  }
  return cosignerKey(opts.name, ed25519PrivateKey(readFileSync(opts.file, 'utf8'), opts.file), opts.file);
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
