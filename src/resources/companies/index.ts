/**
 * companies (Medicine section): entirely from schemas/company.schema.json: list, show, create, edit and
 * delete as its x-endpoints allow, labels from its x-i18n, validation (credit code check character,
 * distinct admin accounts) from its keywords. Mounted by the shell at `/medicine/companies`
 * (src/shell/routes.ts).
 */
import { schemaResource } from '../../schema-ui/schemaResource';

export default schemaResource('companies');
