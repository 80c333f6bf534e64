/**
 * Data > Pigeonhole: the generic views of the archived records (schemas/archivedRecord.schema.json) with
 * a Restore button on each row and on the show page (src/schema-ui/archive.tsx). The button's module
 * (and the put-on-chain code it shares, src/schema-ui/chain.tsx) loads with the first view that shows
 * it, not with the console's shell: nothing is drawn in its place meanwhile.
 */
import { lazyComponent } from '../../shell/lazy';
import { schemaResource } from '../../schema-ui/schemaResource';

const RestoreButton = lazyComponent(
  () => import('../../schema-ui/archive').then((m) => m.RestoreButton),
  null,
);

export default schemaResource('archivedRecords', {
  rowActions: <RestoreButton />,
  showActions: <RestoreButton />,
});
