/**
 * Bid users: the generic schema views (list with search, add via `subjects/insertUser`, details) plus a
 * panel the schema cannot say, beside the show page: the artworks whose bid user this is (react-admin
 * getManyReference on target `bid`, i.e. `GET /artmanager/subjects/artworkListByCurrentUserId?id=`). The
 * avatar is uploaded by the schema engine's file input (`avatar.x-upload`).
 */
import { Card, CardContent, Typography } from '@mui/material';
import { Datagrid, Pagination, ReferenceManyField, TextField, useTranslate } from 'react-admin';
import { schemaResource } from '../../schema-ui/schemaResource';

function NoWorks() {
  const translate = useTranslate();
  return (
    <Typography variant="body2" color="text.secondary">
      {translate('registry.bid.none')}
    </Typography>
  );
}

/** The bid user's artworks (see the module doc). */
function BidWorks() {
  const translate = useTranslate();
  return (
    <Card sx={{ ml: { md: 2 }, minWidth: { md: 360 } }} data-testid="bid-works">
      <CardContent>
        <Typography variant="h6" gutterBottom>
          {translate('registry.bid.works')}
        </Typography>
        <ReferenceManyField
          reference="artworks"
          target="bid"
          perPage={10}
          pagination={<Pagination rowsPerPageOptions={[10]} />}
          empty={<NoWorks />}
        >
          <Datagrid rowClick="show" bulkActionButtons={false}>
            <TextField source="id" />
            <TextField source="artWorkName" />
            <TextField source="authorName" label="resources.artworks.fields.author" />
          </Datagrid>
        </ReferenceManyField>
      </CardContent>
    </Card>
  );
}

const bidUsers = schemaResource('bidUsers', { showAside: <BidWorks /> });
export default bidUsers;
