/**
 * An author's "look at works" page (`/authors/:id/works`): the author's artworks through the dataProvider's
 * `getManyReference('artworks', { target: 'author' })`, i.e. `GET /artmanager/authors/getArtworkList?id=`,
 * with the artwork list's columns, sort and pagination.
 */
import { useParams } from 'react-router';
import { Card, CardContent, Typography } from '@mui/material';
import {
  Datagrid,
  Loading,
  Pagination,
  ReferenceManyField,
  ShowButton,
  Title,
  TopToolbar,
  Button,
  CreateButton,
  RecordContextProvider,
  ResourceContextProvider,
  useGetOne,
  useTranslate,
  useCreatePath,
} from 'react-admin';
import { Link } from 'react-router';
import ArrowBack from '@mui/icons-material/ArrowBack';
import { schemaForResource } from '../../../kernel/dialect/schemaRegistry';
import { kindElement } from '../../schema-ui/kindMap';
import { fieldSpecs } from '../../../kernel/dialect/kinds';

export default function AuthorWorks() {
  const { id } = useParams();
  const translate = useTranslate();
  const createPath = useCreatePath();
  const { data: author, isPending, error } = useGetOne('authors', { id: Number(id) });
  if (isPending) return <Loading />;
  if (error || !author)
    return <Typography color="error">{(error as Error)?.message ?? 'Not found'}</Typography>;
  const artwork = schemaForResource('artworks');
  const columns = fieldSpecs(artwork).filter((f) => f.prop['x-ui']?.list && f.source !== 'author');
  return (
    <RecordContextProvider value={author}>
      <Title title={translate('baas.page.works_of', { name: author.authorName })} />
      <TopToolbar>
        <Button
          component={Link}
          to={createPath({ resource: 'authors', type: 'show', id: author.id })}
          label="ra.action.back"
        >
          <ArrowBack />
        </Button>
        <CreateButton resource="artworks" state={{ record: { author: author.id } }} />
      </TopToolbar>
      <Card>
        <CardContent>
          <Typography variant="h6" gutterBottom>
            {translate('baas.page.works_of', { name: author.authorName })}
          </Typography>
          <ResourceContextProvider value="artworks">
            <ReferenceManyField
              reference="artworks"
              target="author"
              perPage={20}
              sort={{ field: 'id', order: 'DESC' }}
              pagination={<Pagination />}
              empty={
                <Typography variant="body2">
                  {translate('ra.navigation.no_results', {
                    name: translate('resources.artworks.name', { smart_count: 2 }),
                  })}
                </Typography>
              }
            >
              <Datagrid rowClick="show" bulkActionButtons={false}>
                {columns.map((f) =>
                  kindElement('Field', f, artwork, {
                    inList: true,
                    sortable: f.source === 'id' || !!f.prop['x-ui']?.sortable,
                  }),
                )}
                <ShowButton />
              </Datagrid>
            </ReferenceManyField>
          </ResourceContextProvider>
        </CardContent>
      </Card>
    </RecordContextProvider>
  );
}
