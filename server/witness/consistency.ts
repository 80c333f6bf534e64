/**
 * The witness's consistency check: an RFC 6962 section 2.1.2 consistency proof between two tree heads,
 * verified with common/ledger/tlog.ts `checkTree` (Go's sumdb/tlog `CheckTree`). Roots as lowercase hex.
 */
import { fromHex } from '../../common/ledger/hex';
import { checkTree } from '../../common/ledger/tlog';

/** SHA-256 of the empty string: the root hash of the empty tree (RFC 6962 section 2.1), lowercase hex. */
export const EMPTY_TREE_HASH = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

/** Whether `proof` proves that the tree (newSize, newRoot) extends (oldSize, oldRoot). Never throws. */
export function checkConsistencyProof(
  proof: Uint8Array[],
  oldSize: number,
  oldRoot: string,
  newSize: number,
  newRoot: string,
): { ok: true } | { ok: false; message: string } {
  try {
    return checkTree(proof, newSize, fromHex(newRoot), oldSize, fromHex(oldRoot))
      ? { ok: true }
      : { ok: false, message: 'the proof does not lead from the old root hash to the new one' };
  } catch (err) {
    return { ok: false, message: (err as Error).message };
  }
}
