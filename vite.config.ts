import { readdirSync, readFileSync } from 'node:fs';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * The API's path prefixes for the dev proxy: the fixed ones and the first segment of every path the
 * schemas' `x-endpoints` declare (the same rule as common/schemaRegistry.ts `apiPrefixes`, read here from
 * the JSON files so the config loads nothing else), so a new section's prefix needs no line here.
 */
function apiPrefixes(): string[] {
  const out = new Set(['/dev-api', '/artmanager', '/baas-api', '/uploads']);
  for (const f of readdirSync('schemas').filter((n) => n.endsWith('.schema.json'))) {
    const endpoints = JSON.stringify(JSON.parse(readFileSync(`schemas/${f}`, 'utf8'))['x-endpoints'] ?? {});
    for (const m of endpoints.matchAll(/"path":"(\/[^/"]+)/g)) out.add(m[1]);
  }
  return [...out];
}

/** Vite config for the console. In dev, API calls are proxied to the Fastify server (PORT, default 8080). */
const target = `http://127.0.0.1:${process.env.PORT ?? 8080}`;
export default defineConfig({
  plugins: [react()],
  server: { proxy: Object.fromEntries(apiPrefixes().map((p) => [p, target])) },
  build: { outDir: 'dist', chunkSizeWarningLimit: 4000 },
});
