/**
 * The verb → call table of the data provider, derived from every resource schema's `x-endpoints`
 * (react-admin verb → the product's method and path): one row per verb, `getManyReference` one per target.
 * Browser-safe; the console's data provider and codegen's docs/data-provider-calls.md both read it.
 */
import { resourceSchemas, type EndpointSpec, type ResourceSchema } from './schemaRegistry';

/** One row of the derived verb → call table (`idFrom`, `sort`: the data provider's endpoint options). */
export interface EndpointRow {
  resource: string;
  verb: string;
  method: 'GET' | 'POST';
  path: string;
  id?: string;
  ids?: string;
  idFrom?: string[];
  sort?: boolean;
}

/** The verb → call table derived from every resource schema's `x-endpoints`, sorted by resource. */
export function endpointTable(schemas: ResourceSchema[] = resourceSchemas()): EndpointRow[] {
  const rows: EndpointRow[] = [];
  for (const s of [...schemas].sort((a, b) => a['x-resource']!.name.localeCompare(b['x-resource']!.name))) {
    const resource = s['x-resource']!.name;
    for (const [verb, spec] of Object.entries(s['x-endpoints'] ?? {})) {
      if (verb === 'getManyReference') {
        for (const [target, ref] of Object.entries(spec as Record<string, EndpointSpec>))
          rows.push({ resource, verb: `getManyReference(${target})`, ...ref });
      } else rows.push({ resource, verb, ...(spec as EndpointSpec) });
    }
  }
  return rows;
}

/** One table row as docs/data-provider-calls.md writes it: `| resource | verb | METHOD /path?id= |`. */
export function formatEndpointRow(r: EndpointRow): string {
  let call = `${r.method} ${r.path}`;
  if (r.id) call += r.method === 'GET' && !r.verb.startsWith('delete') ? `?${r.id}=` : ` {${r.id}}`;
  else if (r.idFrom && r.verb === 'getOne') call += `?${r.idFrom.map((f) => `${f}=`).join('&')}`;
  if (r.ids) call += r.method === 'GET' ? `?${r.ids}=` : ` {${r.ids}}`;
  return `| ${r.resource} | ${r.verb} | ${call} |`;
}
