/**
 * The Merkle tree of a block's transactions (docs/ledger.md section 3): RFC 6962's Merkle Tree Hash,
 * computed level by level. Leaf = SHA-256(0x00 ‖ data), inner node = SHA-256(0x01 ‖ left ‖ right); on a
 * level with an odd number of nodes the last node is carried up unchanged. Node-only (node:crypto);
 * the browser-side check of a proof is `webVerify.ts`.
 */
import { createHash, hash } from 'node:crypto';

/** node:crypto's one-shot `hash` (Node 20.12+; several times faster than createHash for small inputs). */
const oneShot = typeof hash === 'function';

/** SHA-256 of one buffer (one-shot where available). */
export function sha256Buffer(data: Uint8Array): Buffer {
  return oneShot ? hash('sha256', data, 'buffer') : createHash('sha256').update(data).digest();
}

/**
 * SHA-256 as lowercase hex of text (its UTF-8 bytes) or bytes. One-shot where available, with a string
 * answer: on Node 20 `hash(..., 'hex')` costs about a third of `hash(..., 'buffer')` (0.3-0.5 µs
 * against 1.3-1.5 µs for a transaction-sized input), and the ledger stores hashes as hex anyway.
 */
export function sha256Hex(data: string | Uint8Array): string {
  return oneShot ? hash('sha256', data, 'hex') : createHash('sha256').update(data).digest('hex');
}

/** SHA-256 of the concatenated parts, 32 bytes. */
export function sha256(...parts: Uint8Array[]): Uint8Array {
  if (oneShot)
    return new Uint8Array(hash('sha256', parts.length === 1 ? parts[0] : Buffer.concat(parts), 'buffer'));
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return new Uint8Array(h.digest());
}

const LEAF = Uint8Array.of(0x00);
const NODE = Uint8Array.of(0x01);

/** Leaf hash of one transaction's canonical bytes: SHA-256(0x00 ‖ data). */
export function leafHash(data: Uint8Array): Uint8Array {
  return sha256(LEAF, data);
}

/** The 65 bytes an inner node hashes, reused (hashing is synchronous). */
const nodeInput = Buffer.alloc(65, 0x01);

/** Inner node: SHA-256(0x01 ‖ left ‖ right), for 32-byte children. */
export function nodeHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  if (left.length !== 32 || right.length !== 32) return sha256(NODE, left, right);
  nodeInput.set(left, 1);
  nodeInput.set(right, 33);
  return sha256Buffer(nodeInput);
}

/** The 65 bytes a hex inner node hashes (0x01 ‖ left ‖ right), reused (hashing is synchronous). */
const nodeInputHex = Buffer.alloc(65, 0x01);
const HEX64 = /^[0-9a-f]{64}$/;

/**
 * Inner node of two 32-byte hashes given as 64 lowercase hex characters: SHA-256(0x01 ‖ left ‖ right)
 * as hex. The children are decoded straight into a reused buffer (nothing allocated but the answer).
 * @throws Error when a child is not 64 lowercase hex characters.
 */
export function nodeHashHex(left: string, right: string): string {
  // Buffer.write stops at the first non-hex digit: a short write means a bad child.
  if (
    left.length !== 64 ||
    right.length !== 64 ||
    nodeInputHex.write(left, 1, 32, 'hex') !== 32 ||
    nodeInputHex.write(right, 33, 32, 'hex') !== 32
  )
    throw new Error('Merkle node: children must be 32-byte hex');
  return sha256Hex(nodeInputHex);
}

/**
 * `merkleRoot` over leaf hashes given as hex, answered as lowercase hex: the same tree (docs/ledger.md
 * section 3, the odd node carried up), on strings, the ledger's hot path (blocks are written and verified
 * in hex). @throws Error for an empty list or a leaf that is not 32-byte hex.
 */
export function merkleRootHex(leaves: readonly string[]): string {
  if (leaves.length === 0)
    throw new Error('Merkle root of no leaves: a block holds at least one transaction');
  if (leaves.length === 1) {
    if (!HEX64.test(leaves[0])) throw new Error('Merkle node: children must be 32-byte hex');
    return leaves[0];
  }
  const level = leaves.slice();
  let n = level.length;
  while (n > 1) {
    let k = 0;
    for (let i = 0; i + 1 < n; i += 2) level[k++] = nodeHashHex(level[i], level[i + 1]);
    if (n % 2 === 1) level[k++] = level[n - 1];
    n = k;
  }
  return level[0];
}

/** One step of an audit path: the sibling's hash and on which side of the running hash it sits. */
export interface ProofStep {
  side: 'left' | 'right';
  /** 32 bytes, lowercase hex in the API. */
  hash: Uint8Array;
}

function nextLevel(level: Uint8Array[]): Uint8Array[] {
  const up: Uint8Array[] = [];
  for (let i = 0; i + 1 < level.length; i += 2) up.push(nodeHash(level[i], level[i + 1]));
  if (level.length % 2 === 1) up.push(level[level.length - 1]);
  return up;
}

/**
 * Merkle root of the leaf hashes (not of the raw data: call `leafHash` first).
 * @throws Error for an empty list (a block always holds at least one transaction).
 */
export function merkleRoot(leaves: Uint8Array[]): Uint8Array {
  if (leaves.length === 0)
    throw new Error('Merkle root of no leaves: a block holds at least one transaction');
  let level = leaves;
  while (level.length > 1) level = nextLevel(level);
  return level[0];
}

/**
 * Audit path of leaf `index`: the siblings from the leaf up to the root. Levels where the node is
 * carried up (no sibling) add no step.
 * @throws RangeError when index is outside the leaves.
 */
export function merkleProof(leaves: Uint8Array[], index: number): ProofStep[] {
  if (!Number.isInteger(index) || index < 0 || index >= leaves.length)
    throw new RangeError(`leaf index ${index} outside 0..${leaves.length - 1}`);
  const steps: ProofStep[] = [];
  let level = leaves;
  let i = index;
  while (level.length > 1) {
    const sibling = i % 2 === 0 ? i + 1 : i - 1;
    if (sibling < level.length) steps.push({ side: i % 2 === 0 ? 'right' : 'left', hash: level[sibling] });
    level = nextLevel(level);
    i = Math.floor(i / 2);
  }
  return steps;
}

/** Root reached from `leaf` along `steps`; the proof holds when it equals the block's data hash. */
export function rootFromProof(leaf: Uint8Array, steps: ProofStep[]): Uint8Array {
  let h = leaf;
  for (const s of steps) h = s.side === 'left' ? nodeHash(s.hash, h) : nodeHash(h, s.hash);
  return h;
}
