/**
 * Data > Pigeonhole: the generic views of the archived records (schemas/archivedRecord.schema.json) with
 * a Restore button on each row and on the show page (src/schema-ui/archive.tsx).
 */
import { RestoreButton } from '../../schema-ui/archive';
import { schemaResource } from '../../schema-ui/schemaResource';

export default schemaResource('archivedRecords', {
  rowActions: <RestoreButton />,
  showActions: <RestoreButton />,
});
