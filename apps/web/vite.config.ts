import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import type { Plugin } from 'vite';

const page = (file: string) => fileURLToPath(new URL(file, import.meta.url));

// Two entries in one build (DESIGN §1): the back-office SPA and the public payment form,
// which must not pull in any back-office code.
export default defineConfig({
  plugins: [
    react(),
    paymentPageInDev(),
    // .gz and .br beside each asset; the server sends them as they are (no compression per request)
    compression({ algorithms: ['gzip', 'brotliCompress'], include: /\.(js|css|html|svg|json)$/, threshold: 1024 }),
  ],
  server: {
    port: 5173,
    proxy: { '/api': { target: process.env.API_PROXY_TARGET ?? 'http://localhost:3000' } },
  },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
    rollupOptions: {
      input: { main: page('./index.html'), payment: page('./payment.html') },
    },
  },
});

/** In dev and preview, serve the payment entry for /payment/:formId as the server does in production. */
function paymentPageInDev(): Plugin {
  const rewrite = (req: { url?: string }, _res: unknown, next: () => void) => {
    if (req.url && /^\/payment\/[^/.]+(\?.*)?$/.test(req.url)) req.url = '/payment.html';
    next();
  };
  return {
    name: 'paydesk-payment-page',
    configureServer: (server) => void server.middlewares.use(rewrite),
    configurePreviewServer: (server) => void server.middlewares.use(rewrite),
  };
}
