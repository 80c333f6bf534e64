import { describe, expect, it, vi } from 'vitest';
import { blockHashWeb, txLeafHashWeb } from '../../common/ledger/webVerify';
import { toHex } from '../../common/ledger/hex';
import fc from 'fast-check';
import { canonicalBytes, canonicalJson } from '../../common/ledger/canonical';
import { leafHash } from './merkle';
import { blockHashHex, newTxId, sha256Hex, storedTxLeafHex, txBody, txCanonicalJson, txLeafHash } from './tx';
import type { Transaction } from '../../common/ledger/types';

// The server (node:crypto) and the console (Web Crypto, common/ledger/webVerify.ts) must hash alike.
describe('server and browser hashing agree', () => {
  it('block hash of headers across the DER length and integer boundaries', async () => {
    for (const number of [0, 1, 127, 128, 255, 256, 32767, 32768, 65535, 65536, 2 ** 40, 2 ** 53 - 1]) {
      const header = {
        number,
        previousHash: number ? sha256Hex(`p${number}`) : '',
        dataHash: sha256Hex('d'),
      };
      expect(blockHashHex(header)).toBe(await blockHashWeb(header));
    }
  });

  it('leaf hash of a transaction, extra properties dropped on both sides', async () => {
    const tx: Transaction = {
      txId: newTxId('admin'),
      channel: 'artchannel',
      chaincode: 'artregistry',
      function: 'putAuthor',
      args: ['1', '1', sha256Hex('r'), '引号"\\\n'],
      creator: 'admin',
      timestamp: '2026-11-22 10:00:00.000',
      validationCode: 0,
    };
    const withExtra = { ...tx, blockNumber: 3 } as Transaction;
    expect(toHex(txLeafHash(withExtra))).toBe(await txLeafHashWeb(withExtra));
    expect(toHex(txLeafHash(tx))).toBe(toHex(txLeafHash(withExtra)));
  });
});

// txCanonicalJson writes the fixed shape directly; it must give the generic RFC 8785 text byte for byte.
describe('txCanonicalJson', () => {
  const str = fc.string({ unit: 'binary', maxLength: 40 });
  const tx = fc.record({
    txId: str,
    channel: str,
    chaincode: str,
    function: str,
    args: fc.array(str, { maxLength: 6 }),
    creator: str,
    timestamp: str,
    validationCode: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })),
  });

  it('equals canonicalJson of the eight fields for any strings (lone surrogates, quotes, controls)', () => {
    fc.assert(
      fc.property(tx, (t) => {
        expect(txCanonicalJson(t)).toBe(canonicalJson(txBody(t)));
        expect(toHex(txLeafHash(t))).toBe(toHex(leafHash(canonicalBytes(txBody(t)))));
        // A row as the pipeline stores it (args as JSON.stringify writes them) hashes alike unparsed.
        const stored = [t.txId, t.channel, t.chaincode, t.function, JSON.stringify(t.args)] as const;
        expect(storedTxLeafHex(...stored, t.creator, t.timestamp, t.validationCode)).toBe(
          toHex(txLeafHash(t)),
        );
      }),
      { numRuns: 500 },
    );
  });

  it('a stored row whose args text was rewritten, even to equal JSON, no longer hashes to its leaf', () => {
    const t = { ...fc.sample(tx, 1)[0], args: ['1', '2'] };
    const leaf = toHex(txLeafHash(t));
    const row = (args: string) =>
      storedTxLeafHex(
        t.txId,
        t.channel,
        t.chaincode,
        t.function,
        args,
        t.creator,
        t.timestamp,
        t.validationCode,
      );
    expect(row('["1","2"]')).toBe(leaf);
    expect(row('[ "1", "2" ]')).not.toBe(leaf);
    expect(row('["1","3"]')).not.toBe(leaf);
  });

  it('falls back to the generic encoder, which names the field, for a shape JSON cannot carry', () => {
    const bad = { ...fc.sample(tx, 1)[0], args: ['a', undefined] } as unknown as Transaction;
    expect(() => txCanonicalJson(bad)).toThrow(/\$\.args\[1\] is undefined/);
    const inf = { ...fc.sample(tx, 1)[0], validationCode: Infinity } as Transaction;
    expect(() => txCanonicalJson(inf)).toThrow(/validationCode is not a finite number/);
  });
});

// newTxId: 64 hex digits whose order is the order they were made in (the txId index's last leaf).
describe('newTxId', () => {
  it('grows strictly, also past 65,536 ids in one millisecond and when the clock steps back', () => {
    const clock = vi.spyOn(Date, 'now');
    try {
      const ids: string[] = [];
      clock.mockReturnValue(Date.UTC(2026, 10, 26));
      for (let i = 0; i < 70_000; i++) ids.push(newTxId(i % 2 ? 'admin' : 'system'));
      clock.mockReturnValue(Date.UTC(2026, 10, 25)); // a step back
      for (let i = 0; i < 10; i++) ids.push(newTxId('admin'));
      clock.mockReturnValue(Date.UTC(2027, 0, 1));
      ids.push(newTxId('admin'));
      for (const id of ids) expect(id).toMatch(/^[0-9a-f]{64}$/);
      for (let i = 1; i < ids.length; i++)
        if (!(ids[i - 1] < ids[i])) expect([i, ids[i - 1], ids[i]]).toBe('increasing');
      expect(new Set(ids.map((id) => id.slice(16))).size).toBe(ids.length);
      // The prefix is the clock's milliseconds while the clock moves forward.
      expect(parseInt(ids.at(-1)!.slice(0, 12), 16)).toBe(Date.UTC(2027, 0, 1));
      expect(ids.at(-1)!.slice(12, 16)).toBe('0000');
    } finally {
      clock.mockRestore();
    }
  });
});
