import { readdirSync, readFileSync } from 'node:fs';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { apiPrefixesOf } from './common/apiPrefixes.ts';

/**
 * The API's path prefixes for the dev proxy, from the schemas' JSON files (common/apiPrefixes.ts, the rule
 * the server uses too), so a new section's prefix needs no line here.
 */
function apiPrefixes(): string[] {
  const endpointMaps = readdirSync('schemas')
    .filter((n) => n.endsWith('.schema.json'))
    .map((f) => JSON.parse(readFileSync(`schemas/${f}`, 'utf8'))['x-endpoints'] ?? {});
  return apiPrefixesOf(endpointMaps).map((p) => p.replace(/\/$/, ''));
}

/** Vite config for the console. In dev, API calls are proxied to the Fastify server (PORT, default 8080). */
const target = `http://127.0.0.1:${process.env.PORT ?? 8080}`;
export default defineConfig({
  plugins: [react()],
  server: { proxy: Object.fromEntries(apiPrefixes().map((p) => [p, target])) },
  build: { outDir: 'dist', chunkSizeWarningLimit: 4000 },
});
