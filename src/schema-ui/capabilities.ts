/**
 * What a resource's `x-endpoints` allow (create, edit, delete, deleteMany, show): in a module of its own
 * so the resource configs (schemaResource.tsx) can decide which views exist without loading the views.
 */
import type { ResourceSchema } from '../../kernel/dialect/schemaRegistry';

/** What the resource's x-endpoints allow. */
export function capabilities(schema: ResourceSchema) {
  const e = schema['x-endpoints'] ?? {};
  return {
    create: !!e.create,
    edit: !!e.update,
    delete: !!e.delete,
    deleteMany: !!(e.deleteMany || e.delete),
    show: !!e.getOne,
  };
}
