/**
 * `POST /artmanager/artwork/blockChain` body `{id}` (admin only): puts the artwork on chain
 * (docs/ledger.md section 7). Refused (409) while its author is not on chain. Status goes 0 → 1 (being
 * rolled out: submitted) → 2 (on chain: in a committed block). Idempotent while the artwork is
 * unchanged; a new version after an edit. Answers like the author call (../blockChainRoute.ts).
 */
import { conflict } from '../../../errors';
import { msg } from '../../../../common/messages/index';
import { blockChainRoute } from '../blockChainRoute';

export default blockChainRoute({
  table: 'artworks',
  kind: 'artwork',
  check: async (app, record) => {
    const author = await app.db
      .selectFrom('authors')
      .select(['id', 'authorName', 'isBlock'])
      .where('id', '=', record.author)
      .executeTakeFirst();
    if (!author || author.isBlock !== 1)
      throw conflict(
        msg('ledger.authorNotOnChain', {
          authorName: author?.authorName ?? record.author,
          author: record.author,
        }),
        { author: record.author },
      );
  },
  onSubmitted: async (app, id) => {
    // Being rolled out until the block is committed (the commit hook sets 2).
    await app.db
      .updateTable('artworks')
      .set({ status: 1 })
      .where('id', '=', id)
      .where('status', '=', 0)
      .execute();
  },
});
