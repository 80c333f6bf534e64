/**
 * A transparency log kept in memory for tests (common/ledger/tlog.ts stored hashes): append entries,
 * read any tree head, prove consistency, and sign C2SP checkpoints whose origin is the key name.
 */
import { generateKeyPairSync } from 'node:crypto';
import { toHex } from '../../common/ledger/hex';
import { formatCheckpoint } from '../../common/ledger/note';
import { proveRecord, proveTree, storedHashes, treeHash, type Hash } from '../../common/ledger/tlog';
import { describeKey, signNote, type SigningKey } from '../../server/ledger/checkpoints';

/** A fresh Ed25519 note-signing key named `name` (a log's key name is its origin). */
export function testLogKey(name: string): Promise<SigningKey> {
  return describeKey(name, generateKeyPairSync('ed25519').privateKey, 'test');
}

export class MemLog {
  stored: Hash[] = [];
  entries: Uint8Array[] = [];
  constructor(readonly key: SigningKey) {}
  get size(): number {
    return this.entries.length;
  }
  private read = (idx: number[]) => idx.map((i) => this.stored[i]);
  /** Appends `n` entries `<tag> <index>`. */
  append(n: number, tag = 'e'): this {
    for (let i = 0; i < n; i++) {
      const data = new TextEncoder().encode(`${tag} ${this.size}`);
      this.stored.push(...storedHashes(this.size, data, this.read));
      this.entries.push(data);
    }
    return this;
  }
  root(size = this.size): string {
    return toHex(treeHash(size, this.read));
  }
  /** The consistency proof from `oldSize` to `size` (empty from 0). */
  proof(oldSize: number, size = this.size): Hash[] {
    return oldSize === 0 ? [] : proveTree(size, oldSize, this.read);
  }
  inclusion(index: number, size = this.size): Hash[] {
    return proveRecord(size, index, this.read);
  }
  /** The signed checkpoint note of `size` (origin = the key name). */
  note(size = this.size, rootHash = this.root(size), key = this.key): Promise<string> {
    return signNote(key, formatCheckpoint({ origin: key.name, size, rootHash, extensions: [] }));
  }
}
