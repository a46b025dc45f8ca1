import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';

const page = (file: string) => fileURLToPath(new URL(file, import.meta.url));

// Two entries in one build (DESIGN §1): the back-office SPA and the public payment form,
// which must not pull in any back-office code.
export default defineConfig({
  plugins: [react(), paymentPageInDev()],
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://localhost:3000' } },
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

/** In dev, serve the payment entry for /payment/:formId as the server does in production. */
function paymentPageInDev(): Plugin {
  return {
    name: 'paydesk-payment-page',
    configureServer(server) {
      server.middlewares.use((req, _res, next) => {
        if (req.url && /^\/payment\/[^/.]+(\?.*)?$/.test(req.url)) req.url = '/payment.html';
        next();
      });
    },
  };
}
