import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { derInteger, derLength, encodeHeader } from './der';
import { fromHex, toHex } from './hex';

// Fixed vectors: DER bytes written out by hand, hashes computed independently (Python hashlib).
const D = createHash('sha256').update('').digest('hex'); // e3b0c442... (SHA-256 of "")
const P = '11'.repeat(32);

/** SHA-256 (node:crypto) of the DER header: the block hash, computed here without the server's code. */
function blockHashHex(h: { number: number; previousHash: string; dataHash: string }): string {
  const der = encodeHeader({
    number: h.number,
    previousHash: fromHex(h.previousHash),
    dataHash: fromHex(h.dataHash),
  });
  return createHash('sha256').update(der).digest('hex');
}

describe('DER block header (Fabric asn1Header)', () => {
  it.each([
    [0, '020100'],
    [1, '020101'],
    [127, '02017f'],
    [128, '02020080'],
    [255, '020200ff'],
    [256, '02020100'],
    [65536, '0203010000'],
    [2 ** 40, '02060100' + '00000000'],
  ])('encodes INTEGER %d minimally with a sign byte', (n, der) => {
    expect(toHex(derInteger(n))).toBe(der);
  });

  it.each([-1, 1.5])('refuses INTEGER %d', (n) => {
    expect(() => derInteger(n)).toThrow(/non-negative/);
  });

  it.each([
    [0, '00'],
    [127, '7f'],
    [128, '8180'],
    [255, '81ff'],
    [256, '820100'],
    [70000, '83011170'],
  ])('encodes length %d in short or long form', (n, der) => {
    expect(toHex(derLength(n))).toBe(der);
  });

  /** SHA-256 of each vector's DER bytes (computed with Python hashlib), by block number. */
  const vectorHash: Record<number, string> = {
    0: '9cae6f5c10756febc407bba95fc23853774c1f65f10354895bfdab6443d66ed3',
    1: 'dfba49164b6f66740fca075cd460de6d2298673b36a4b3b204651d9de9e914ed',
    127: 'ee0d78f3ec7386825a8b1ec217d0076d048831ee27e270a26ae742ed6deb305d',
    128: 'd58ec64c9ab08e071b0569411c5e283a9ec065d77fbd9b572bd7cdaeef6fb9ef',
    65536: '722c74e90cbc78420e381dcd5169654950c6e6f3f0a8d9d045e024b571d576ce',
  };

  it.each<[string, number, string, string]>([
    ['genesis (empty previous hash)', 0, '', '3027' + '020100' + '0400' + '0420' + D],
    ['block 1', 1, P, '3047' + '020101' + '0420' + P + '0420' + D],
    ['block 127', 127, P, '3047' + '02017f' + '0420' + P + '0420' + D],
    ['block 128 (sign byte)', 128, P, '3048' + '02020080' + '0420' + P + '0420' + D],
    ['block 65536', 65536, P, '3049' + '0203010000' + '0420' + P + '0420' + D],
  ])('matches the fixed vector: %s', (_name, number, previousHash, derHex) => {
    const hash = vectorHash[number];
    const der = encodeHeader({ number, previousHash: fromHex(previousHash), dataHash: fromHex(D) });
    expect(toHex(der)).toBe(derHex);
    expect(createHash('sha256').update(Buffer.from(derHex, 'hex')).digest('hex')).toBe(hash);
    expect(blockHashHex({ number, previousHash, dataHash: D })).toBe(hash);
  });

  it('changes the block hash when any header field changes', () => {
    const h = blockHashHex({ number: 5, previousHash: P, dataHash: D });
    expect(blockHashHex({ number: 6, previousHash: P, dataHash: D })).not.toBe(h);
    expect(blockHashHex({ number: 5, previousHash: D, dataHash: D })).not.toBe(h);
    expect(blockHashHex({ number: 5, previousHash: P, dataHash: P })).not.toBe(h);
  });
});
