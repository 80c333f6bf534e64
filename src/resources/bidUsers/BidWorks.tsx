/**
 * The bid user's works beside the show page (`ReferenceManyField` over artworks by `bid`, a datagrid of
 * 10 per page), loaded lazily by ./index.tsx with the show page.
 */
import { Card, CardContent, Typography } from '@mui/material';
import { Datagrid, Pagination, ReferenceManyField, TextField, useTranslate } from 'react-admin';

function NoWorks() {
  const translate = useTranslate();
  return (
    <Typography variant="body2" color="text.secondary">
      {translate('registry.bid.none')}
    </Typography>
  );
}

/** The bid user's artworks (see the module doc). */
export default function BidWorks() {
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
