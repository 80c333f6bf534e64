/**
 * The TypeScript name of a resource schema's record type (common/generated/types.ts, and the table and
 * record types of server/db/generated/tables.ts): its `title` (a human label, e.g. "Loan venue 4") made
 * an identifier, PascalCase: every run of letters and digits is a word, each word capitalised (also after
 * digits, as json-schema-to-typescript's `toSafeString` does, so the name codegen passes it stays as it
 * is), other characters dropped, leading digits dropped. A title with no Latin letter (e.g. Chinese) falls
 * back to the schema's `$id` the same way, then to `Resource`.
 */
export function typeNameOf(schema: { title?: unknown; $id?: unknown }): string {
  for (const source of [schema.title, schema.$id])
    if (typeof source === 'string') {
      const name = identifier(source);
      if (name) return name;
    }
  return 'Resource';
}

/** `text` as a PascalCase identifier, or '' when it has no Latin letter (see `typeNameOf`). */
function identifier(text: string): string {
  const words =
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .match(/[A-Za-z0-9]+/g) ?? [];
  return words
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('')
    .replace(/(\d)([a-z])/g, (_, d: string, c: string) => d + c.toUpperCase())
    .replace(/^\d+/, '');
}
