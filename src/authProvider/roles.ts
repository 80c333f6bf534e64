/**
 * Which resources a set of roles may use, from the schemas' `x-roles` (src/generated/resources.ts): the
 * console registers only the allowed resources (App.tsx) and the authProvider's `canAccess` answers
 * from the same rule. Resources no schema declares (dashboard, shell pages) are open to every role.
 */
import { isFinal } from '../../kernel/dialect/frozen';
import { generatedResources } from '../generated/resources';
import { actionPageAllowed } from '../shell/permission';

/** Roles a resource requires (`x-roles`), or undefined when no schema declares the resource. */
export function rolesForResource(resource: string): string[] | undefined {
  return generatedResources.find((r) => r.name === resource)?.roles;
}

/** True when `roles` may use `resource`: it declares no roles, or one of its roles is held. */
export function rolesAllow(roles: string[], resource: string): boolean {
  const required = rolesForResource(resource);
  return !required || required.some((r) => roles.includes(r));
}

/**
 * The calls (x-endpoints verbs) behind each react-admin access action: its buttons ask `canAccess` with
 * these actions (CreateButton `create`, EditButton `edit`, DeleteButton and the bulk delete `delete`).
 */
const ACTION_VERBS: Record<string, string[]> = {
  list: ['getList'],
  show: ['getOne'],
  create: ['create'],
  clone: ['create'],
  edit: ['update'],
  delete: ['delete', 'deleteMany'],
};

/**
 * True when `roles` may take `action` on `resource`: the resource is allowed ({@link rolesAllow}), and
 * every call the action makes admits one of the roles: `admin`, or one of the call's own roles
 * (`x-endpoints.<verb>.roles`, src/generated/resources.ts `verbRoles`). The server's role gate applies
 * the same rule to each call (server/plugins/app/auth.ts `requireRoles`); this only spares the user
 * buttons that would be refused. An action without calls (`export`) follows the resource. With a
 * `record` (the buttons of a row or a show page pass theirs), `edit` and `delete` are refused for a final
 * record (`x-frozen`, src/generated/resources.ts `frozen`), as the kernel refuses them. An action that
 * opens a page (list, show, create, clone, edit) also needs that page's route in the account's route
 * tree (src/shell/permission.ts `actionPageAllowed`): a button is not offered to lead to the 401 page.
 */
export function actionAllowed(
  roles: string[],
  resource: string,
  action: string,
  record?: Record<string, unknown>,
): boolean {
  if (!rolesAllow(roles, resource)) return false;
  if (!actionPageAllowed(roles, resource, action)) return false;
  const row = generatedResources.find((r) => r.name === resource);
  // A final record (x-frozen) is neither edited nor deleted, whoever asks: the server refuses both.
  if ((action === 'edit' || action === 'delete') && isFinal(row?.frozen, record)) return false;
  const verbRoles = row?.verbRoles;
  if (!verbRoles || roles.includes('admin')) return true;
  return (ACTION_VERBS[action] ?? []).every(
    (verb) => !verbRoles[verb] || verbRoles[verb].some((r) => roles.includes(r)),
  );
}
