/**
 * Accounts (Permission > User): the generic schema views (list with search, show, add, edit, delete with
 * confirmation; schemas/account.schema.json) plus what the schema cannot say: the grant/revoke role
 * buttons (addAuth/delAuth) on every row and on the show page.
 */
import { schemaResource } from '../../schema-ui/schemaResource';
import RoleButtons from './RoleButtons';

export default schemaResource('accounts', { rowActions: <RoleButtons />, showActions: <RoleButtons /> });
