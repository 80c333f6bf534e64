/**
 * The roles of the dialect, declared once (issue 33): the roles an account can hold are the enum of the
 * account schema's `roles` items (schemas/account.schema.json: `admin`, `user`, `company`). The server's
 * role checks (server/routes/dev-api/user `KNOWN_ROLES`) and the console's role buttons read the same enum;
 * codegen (scripts/codegen/dialectRules.ts) refuses any other role in `x-roles`, `x-resource.roles` or an
 * `x-endpoints` call's `roles`, since no account could ever be admitted by it.
 */

/** The schema (`$id`) and property that declare the roles. */
export const ROLES_SCHEMA_ID = 'account';
export const ROLES_PROPERTY = 'roles';

type Json = Record<string, any>;

/**
 * The roles declared by the account schema among `list` (string enum values of its `roles` items), or
 * undefined when `list` holds no account schema or it declares no such enum (nothing to check against).
 */
export function declaredRoles(list: Json[]): string[] | undefined {
  const items = list.find((s) => s?.$id === ROLES_SCHEMA_ID)?.properties?.[ROLES_PROPERTY]?.items;
  const values: unknown = items?.enum;
  return Array.isArray(values) ? values.filter((v): v is string => typeof v === 'string') : undefined;
}
