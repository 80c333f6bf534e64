/**
 * The API's path prefixes (`/dev-api/`, ...): the fixed ones (login, uploads, the ledger) and the first
 * segment of every path the given `x-endpoints` maps declare (a verb's `{path}`, or getManyReference's
 * `{target: {path}}`). Imports nothing, so Vite's config can load it as it is (vite.config.ts: the dev
 * proxy); the server reads it through kernel/dialect/schemaRegistry.ts `apiPrefixes` (the 404 envelope instead of
 * the console's page, server/plugins/external/static.ts). A new section's prefix needs no hand-written line.
 * @param endpointMaps each resource schema's `x-endpoints` (missing ones as `{}`)
 * @returns prefixes with a leading and a trailing slash, without repeats
 */
export function apiPrefixesOf(endpointMaps: object[]): string[] {
  const paths: string[] = [];
  for (const map of endpointMaps)
    for (const e of Object.values(map) as Record<string, unknown>[])
      if (typeof e.path === 'string') paths.push(e.path);
      else for (const r of Object.values(e) as { path: string }[]) paths.push(r.path);
  return [
    ...new Set([
      '/dev-api/',
      '/artmanager/',
      '/baas-api/',
      '/uploads/',
      '/image-cache/',
      ...paths.map((p) => `/${p.split('/')[1]}/`),
    ]),
  ];
}
