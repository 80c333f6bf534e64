/**
 * The archive's hooks (archivedRecords, schemas/archivedRecord.schema.json): its read scope. The archive
 * and restore calls themselves are server/routes/data-api/pigeonhole.ts.
 */
import { Codes } from '../../common/envelope';
import { resourceSchemas } from '../dialect/schemaRegistry';
import type { ResourceHooks } from '../server/repository';
import { apiError } from '../../server/errors';

/** Resources whose schema declares `x-archive: true`. */
export function archivableResources(): string[] {
  return resourceSchemas()
    .filter((s) => s['x-archive'] === true)
    .map((s) => s['x-resource']!.name);
}

/**
 * The archive's read scope for a caller with `roles` and a list query's `filters`, given each archivable
 * resource's roles (`x-roles`, admin only when none): an entry holds a whole stored row of its resource,
 * so reading it (list, getOne, export, History) needs that resource's own roles as well (admin always).
 * - admin, or a caller who may read every archived resource: `{}` (no restriction);
 * - a `resource` filter naming an archivable resource: `{resource}` when the caller may read it, else 403
 *   naming its roles;
 * - otherwise the resources the caller may read: `{resource: [...]}` (one of them, SQL `IN`); 403 naming
 *   the roles of any of them when the caller may read none.
 */
export function archiveReadScope(
  roles: readonly string[],
  filters: Record<string, unknown>,
  rolesByResource: Record<string, readonly string[]>,
): Record<string, unknown> {
  if (roles.includes('admin')) return {};
  const all = Object.keys(rolesByResource);
  const readable = all.filter((r) => rolesByResource[r].some((x) => roles.includes(x)));
  const asked = filters.resource;
  if (typeof asked === 'string' && all.includes(asked)) {
    if (readable.includes(asked)) return { resource: asked };
    throw apiError(Codes.FORBIDDEN, 403, 'auth.roleRequired', { roles: rolesByResource[asked].join(', ') });
  }
  if (readable.length === all.length) return {};
  if (readable.length) return { resource: readable };
  const any = [...new Set(all.flatMap((r) => rolesByResource[r]))];
  throw apiError(Codes.FORBIDDEN, 403, 'auth.roleRequired', { roles: any.join(', ') || 'admin' });
}

/** The archive's hooks: its read scope ({@link archiveReadScope} over the schemas' `x-archive` resources). */
export const archivedRecordHooks: ResourceHooks = {
  readScope(roles, filters) {
    const rolesByResource = Object.fromEntries(
      archivableResources().map((r) => [
        r,
        (resourceSchemas().find((s) => s['x-resource']?.name === r)?.['x-roles'] as string[] | undefined) ?? [
          'admin',
        ],
      ]),
    );
    return archiveReadScope(roles, filters, rolesByResource);
  },
};
