/**
 * Bid users: the generic schema views (list with search, add via `subjects/insertUser`, details) plus a
 * show tab the schema cannot say: the artworks whose bid user this is (react-admin getManyReference on
 * target `bid`, i.e. `GET /artmanager/subjects/artworkListByCurrentUserId?id=`). The avatar is uploaded by
 * the schema engine's file input (`avatar.x-upload`).
 */
import {
  Datagrid,
  Pagination,
  ReferenceManyField,
  TabbedShowLayout,
  TextField,
  useTranslate,
} from 'react-admin';
import { Typography } from '@mui/material';
import { schemaResource } from '../../schema-ui/schemaResource';

function NoWorks() {
  const translate = useTranslate();
  return (
    <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
      {translate('registry.bid.none')}
    </Typography>
  );
}

const worksTab = (
  <TabbedShowLayout.Tab key="works" label="registry.bid.works" path="works">
    <ReferenceManyField
      reference="artworks"
      target="bid"
      perPage={20}
      pagination={<Pagination rowsPerPageOptions={[20]} />}
      empty={<NoWorks />}
    >
      <Datagrid rowClick="show" bulkActionButtons={false} data-testid="bid-works">
        <TextField source="id" />
        <TextField source="artWorkName" />
        <TextField source="authorName" label="resources.artworks.fields.author" />
        <TextField source="classify" />
      </Datagrid>
    </ReferenceManyField>
  </TabbedShowLayout.Tab>
);

const bidUsers = schemaResource('bidUsers', { showTabs: [worksTab] });
export default bidUsers;
