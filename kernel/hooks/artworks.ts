/**
 * Artworks' behaviour beyond the schema (registered in kernel/hooks/index.ts): a `classify` value not
 * yet known is registered in `art_categories` (the artCategories resource), in the write's transaction,
 * so a refused write registers nothing.
 */
import type { ResourceHooks } from '../server/repository';

export const artworkHooks: ResourceHooks = {
  async beforeWrite({ db, values }) {
    if (typeof values.classify !== 'string') return;
    await db
      .insertInto('art_categories')
      .values({ name: values.classify })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
  },
};
