/**
 * Medicine > Smart-contract templates: the generic views of the templates
 * (schemas/contractTemplate.schema.json) with "Add smart contract" on each row and on the show page:
 * the contract form (`/smContract/add`, the contracts resource's create view) with this template chosen,
 * through react-admin's prefill (`?source={"templateId":<id>}`).
 */
import { Button } from '@mui/material';
import NoteAdd from '@mui/icons-material/NoteAdd';
import { Link } from 'react-router';
import { useRecordContext, useTranslate } from 'react-admin';
import { schemaResource } from '../../schema-ui/schemaResource';

/** Opens Add smart contract with the current template chosen. */
function UseTemplateButton() {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  return (
    <Button
      size="small"
      component={Link}
      to={`/smContract/add?source=${encodeURIComponent(JSON.stringify({ templateId: record.id }))}`}
      startIcon={<NoteAdd fontSize="small" />}
      data-testid="use-template"
      onClick={(e: React.MouseEvent) => e.stopPropagation()}
    >
      {translate('shell.route.addSmContract')}
    </Button>
  );
}

export default schemaResource('contractTemplates', {
  rowActions: <UseTemplateButton />,
  showActions: <UseTemplateButton />,
});
