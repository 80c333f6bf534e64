/**
 * The type of a row of the console's resource registry (src/generated/resources.ts, written by
 * scripts/codegen/resources.ts from each schema's x-resource, x-roles, x-endpoints and x-ui): one place,
 * read by codegen (which builds the rows) and by the console (which re-exports it with the rows).
 *
 * One console resource, as declared by a schema's x-resource, x-roles, x-endpoints and x-ui sections
 * (scripts/codegen/resources.ts builds each field).
 */
export interface GeneratedResource {
  name: string;
  schemaId: string;
  /** Roles that see the resource (x-resource.roles, else x-roles). */
  roles: string[];
  recordRepresentation: string;
  icon: string | null;
  verbs: string[];
  /**
   * The calls that admit fewer roles than the resource (`x-endpoints.<verb>.roles`; `admin` is always
   * admitted, as on the server): the console offers their buttons only to those roles.
   */
  verbRoles: Record<string, string[]>;
  /** `x-frozen.when`: a record with these values is final (no Edit, no Delete), or null. */
  frozen: Record<string, unknown> | null;
  /** Path of the parent menu route in src/shell/routes.ts, or null for a top-level entry. */
  group: string | null;
  /** The list's product path. */
  path: string;
  /** Menu and registration order. */
  order: number;
  /** Data only: no menu entry, no generated routes. */
  hidden: boolean;
  /** `shell.route.*` title keys per view, or null for the derived title. */
  titles: { list: string | null; show: string | null; create: string | null; edit: string | null };
  /** Tab paths (x-ui sections but `main`) of the show page and of the create/edit forms. */
  tabs: { show: string[]; form: string[] };
  /** The resource's own child routes, path relative to `/<name>`. */
  routes: { path: string; title: string }[];
}
