/**
 * `POST /artmanager/authors/blockChain` body `{id}` (admin only): puts the author on chain
 * (docs/ledger.md section 7). Idempotent while the author is unchanged; a new version after an edit.
 * Answers `{ record, txId, channel, blockNumber, blockTime, version, digest, repeated }` once the block
 * holding the transaction is committed (../blockChainRoute.ts).
 */
import { blockChainRoute } from '../blockChainRoute';

export default blockChainRoute({ table: 'authors', kind: 'author' });
