/**
 * Ed25519 private keys for the log's signer (server/ledger/checkpoints.ts) and the witness
 * (server/witness/key.ts): parsed from configuration text (a PKCS#8 PEM private key, RFC 8410, or the
 * standard base64 of a 32-byte seed), or from a PEM file created (mode 0600) at first use.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { fromHex } from '../../common/ledger/hex';
import { fromBase64 } from '../../common/ledger/note';
import { ConfigError } from '../configError';

/** PKCS#8 DER prefix of an Ed25519 private key (RFC 8410), followed by the 32-byte seed. */
const PKCS8_ED25519_PREFIX = fromHex('302e020100300506032b657004220420');

/** The Ed25519 private key of a 32-byte seed (RFC 8032 section 5.1.5), as PKCS#8 DER (RFC 8410). */
export function ed25519SeedKey(seed: Uint8Array): KeyObject {
  if (seed.length !== 32) throw new Error('a seed is 32 bytes');
  return createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
}

/** An Ed25519 private key from a base64 seed or PKCS#8 PEM text. @throws ConfigError naming `what`. */
export function ed25519PrivateKey(text: string, what: string): KeyObject {
  const t = text.trim().replace(/\\n/g, '\n');
  let key: KeyObject;
  try {
    if (t.startsWith('-----BEGIN')) key = createPrivateKey(t);
    else key = ed25519SeedKey(fromBase64(t));
  } catch (err) {
    throw new ConfigError(
      `${what} must be a PKCS#8 PEM Ed25519 private key or the base64 of a 32-byte seed: ${(err as Error).message}`,
    );
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new ConfigError(`${what} must be an Ed25519 key`);
  return key;
}

/**
 * The Ed25519 private key in PEM file `file`, generated and written (mode 0600, never overwritten) when
 * the file does not exist. @throws Error naming the file when it holds no Ed25519 key.
 */
export function ed25519KeyFile(file: string): KeyObject {
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    const { privateKey } = generateKeyPairSync('ed25519');
    writeFileSync(file, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600, flag: 'wx' });
    chmodSync(file, 0o600);
  }
  return ed25519PrivateKey(readFileSync(file, 'utf8'), file);
}

/**
 * A configured Ed25519 private key: the text of environment variable `envName` (`envText`) when set,
 * else the PEM file `file` (created at first use, see `ed25519KeyFile`); `source` says which
 * ("env NAME" or the file's path). @throws Error naming the variable or file for an unusable key.
 */
export function ed25519ConfiguredKey(
  envText: string | undefined,
  envName: string,
  file: string,
): { key: KeyObject; source: string } {
  if (envText) return { key: ed25519PrivateKey(envText, envName), source: `env ${envName}` };
  return { key: ed25519KeyFile(file), source: file };
}

/** The 32 raw bytes of a private key's Ed25519 public key (RFC 8032). */
export function ed25519PublicKey(privateKey: KeyObject): Uint8Array {
  return new Uint8Array(Buffer.from(createPublicKey(privateKey).export({ format: 'jwk' }).x!, 'base64url'));
}
