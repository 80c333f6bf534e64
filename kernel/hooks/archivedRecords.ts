/**
 * The archive's hooks (archivedRecords, schemas/archivedRecord.schema.json): its read scope. The archive
 * and restore calls themselves are server/routes/data-api/pigeonhole.ts.
 */
import { Codes } from '../../common/envelope';
import { resourceSchemas } from '../dialect/schemaRegistry';
import type { ResourceHooks } from '../server/repository';
import { apiError } from '../../server/plugins/app/errors';

/** Resources whose schema declares `x-archive: true`. */
export function archivableResources(): string[] {
  return resourceSchemas()
    .filter((s) => s['x-archive'] === true)
    .map((s) => s['x-resource']!.name);
}

/**
 * The archive's read scope (ResourceHooks.readScope): an entry holds a whole stored row of its resource,
 * so reading it (list, getOne) needs that resource's own `x-roles` as well (admin always). A caller who may
 * read some of the archived resources sees only theirs: with one, the list is narrowed to it; with several
 * (but not all), the list must name one in its `resource` filter. A `resource` filter the caller may not
 * read, or no readable resource at all: 403 naming the roles.
 */
export const archivedRecordHooks: ResourceHooks = {
  readScope(roles, filters) {
    if (roles.includes('admin')) return {};
    const all = archivableResources();
    const rolesOf = (r: string) =>
      (resourceSchemas().find((s) => s['x-resource']?.name === r)?.['x-roles'] as string[] | undefined) ?? [
        'admin',
      ];
    const readable = all.filter((r) => rolesOf(r).some((x) => roles.includes(x)));
    const asked = filters.resource;
    if (typeof asked === 'string' && all.includes(asked)) {
      if (readable.includes(asked)) return { resource: asked };
      throw apiError(Codes.FORBIDDEN, 403, 'auth.roleRequired', { roles: rolesOf(asked).join(', ') });
    }
    if (readable.length === all.length) return {};
    if (readable.length === 1) return { resource: readable[0] };
    throw apiError(Codes.FORBIDDEN, 403, 'auth.roleRequired', { roles: 'admin' });
  },
};
