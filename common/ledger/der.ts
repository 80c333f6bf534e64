/**
 * DER (X.690) encoding of a block header, as Hyperledger Fabric's `protoutil.BlockHeaderBytes`:
 * `SEQUENCE { number INTEGER, previousHash OCTET STRING, dataHash OCTET STRING }`
 * (docs/ledger.md section 2). Browser-safe (no node imports).
 */
import { concatBytes } from './hex';

/** The hashed part of a block: its number and the two hashes as raw bytes. */
export interface HeaderBytes {
  /** Block number, a non-negative safe integer (0 = genesis). */
  number: number;
  /** 0 bytes for the genesis block, else the previous block's 32-byte hash. */
  previousHash: Uint8Array;
  /** The 32-byte Merkle root of the block's transactions. */
  dataHash: Uint8Array;
}

/** DER length octets: short form below 128, else 0x80|n followed by n big-endian bytes. */
export function derLength(length: number): Uint8Array {
  if (!Number.isSafeInteger(length) || length < 0) throw new Error(`DER: bad length ${length}`);
  if (length < 0x80) return Uint8Array.of(length);
  const bytes: number[] = [];
  for (let n = length; n > 0; n = Math.floor(n / 256)) bytes.unshift(n % 256);
  return Uint8Array.of(0x80 | bytes.length, ...bytes);
}

function tlv(tag: number, content: Uint8Array): Uint8Array {
  return concatBytes(Uint8Array.of(tag), derLength(content.length), content);
}

/**
 * DER INTEGER of a non-negative safe integer: minimal big-endian two's complement, so a leading 0x00 is
 * added when the top bit of the first byte is set (128 -> 02 02 00 80).
 * @throws Error for a negative, fractional or unsafe number.
 */
export function derInteger(value: number): Uint8Array {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new Error(`DER: block number must be a non-negative integer, got ${value}`);
  const bytes: number[] = [];
  for (let n = value; n > 0; n = Math.floor(n / 256)) bytes.unshift(n % 256);
  if (bytes.length === 0) bytes.push(0);
  if (bytes[0] & 0x80) bytes.unshift(0);
  return tlv(0x02, Uint8Array.from(bytes));
}

/** DER OCTET STRING. */
export function derOctetString(bytes: Uint8Array): Uint8Array {
  return tlv(0x04, bytes);
}

/** DER SEQUENCE of already-encoded elements. */
export function derSequence(...elements: Uint8Array[]): Uint8Array {
  return tlv(0x30, concatBytes(...elements));
}

/** The DER bytes of a block header; the block hash is SHA-256 of these bytes. */
export function encodeHeader(header: HeaderBytes): Uint8Array {
  return derSequence(
    derInteger(header.number),
    derOctetString(header.previousHash),
    derOctetString(header.dataHash),
  );
}
