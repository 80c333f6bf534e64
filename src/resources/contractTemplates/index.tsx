/**
 * Medicine > Smart-contract templates: the generic views of the templates
 * (schemas/contractTemplate.schema.json) with "Add smart contract" on each row and on the show page:
 * the contract form (`/contracts/create`, the contracts resource's create view, where the product path
 * `/smContract/add` leads) with this template chosen, through react-admin's prefill
 * (`?source={"templateId":<id>}`). Offered only to the roles that may create a contract and reach that
 * form (authProvider `canAccess`): the user account reads a template's page without the Medicine group,
 * so the product path would be its 401 page.
 */
import { Button } from '@mui/material';
import NoteAdd from '@mui/icons-material/NoteAdd';
import { Link } from 'react-router';
import { useCanAccess, useCreatePath, useRecordContext, useTranslate } from 'react-admin';
import { schemaResource } from '../../schema-ui/schemaResource';

/** Opens Add smart contract with the current template chosen. */
function UseTemplateButton() {
  const record = useRecordContext();
  const translate = useTranslate();
  const createPath = useCreatePath();
  const { canAccess } = useCanAccess({ resource: 'contracts', action: 'create' });
  if (!record || !canAccess) return null;
  return (
    <Button
      size="small"
      component={Link}
      to={`${createPath({ resource: 'contracts', type: 'create' })}?source=${encodeURIComponent(
        JSON.stringify({ templateId: record.id }),
      )}`}
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
