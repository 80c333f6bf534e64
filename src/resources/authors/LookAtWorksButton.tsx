/** Button to an author's "look at works" page (`/authors/:id/works`); shows the author's work count. */
import { Button, useRecordContext } from 'react-admin';
import { Link } from 'react-router';
import Collections from '@mui/icons-material/Collections';

export default function LookAtWorksButton() {
  const record = useRecordContext();
  if (!record) return null;
  return (
    <Button
      component={Link}
      to={`/authors/${record.id}/works`}
      label="baas.action.look_at_works"
      onClick={(e: React.MouseEvent) => e.stopPropagation()}
    >
      <Collections />
    </Button>
  );
}
