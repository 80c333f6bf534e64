import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/** Vite config for the console. In dev, API calls are proxied to the Fastify server (PORT, default 8080). */
export default defineConfig({
  plugins: [react()],
  server: {
    proxy: {
      '/dev-api': `http://127.0.0.1:${process.env.PORT ?? 8080}`,
      '/artmanager': `http://127.0.0.1:${process.env.PORT ?? 8080}`,
      '/baas-api': `http://127.0.0.1:${process.env.PORT ?? 8080}`,
      '/medicine-api': `http://127.0.0.1:${process.env.PORT ?? 8080}`,
      '/uploads': `http://127.0.0.1:${process.env.PORT ?? 8080}`,
    },
  },
  build: { outDir: 'dist', chunkSizeWarningLimit: 4000 },
});
