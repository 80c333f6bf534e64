import { describe, expect, it } from 'vitest';
import { blockHashWeb, txLeafHashWeb } from '../../common/ledger/webVerify';
import { toHex } from '../../common/ledger/hex';
import { blockHashHex, newTxId, sha256Hex, txLeafHash } from './tx';
import type { Transaction } from '../../common/ledger/types';

// The server (node:crypto) and the console (Web Crypto, common/ledger/webVerify.ts) must hash alike.
describe('server and browser hashing agree', () => {
  it('block hash of headers across the DER length and integer boundaries', async () => {
    for (const number of [0, 1, 127, 128, 255, 256, 65535, 65536, 2 ** 40]) {
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
