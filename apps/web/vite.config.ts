import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import type { Plugin } from 'vite';

const page = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const landing = landingScreens();

// Two entries in one build: the back-office SPA and the public payment form,
// which must not pull in any back-office code.
export default defineConfig({
  plugins: [
    react(),
    paymentPageInDev(),
    landing.plugin,
    routePreloads(),
    entryStylesAfterFirstPaint(),
    mantineStyles(),
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
      output: { codeSplitting: { includeDependenciesRecursively: false, groups: chunkGroups(landing) } },
    },
  },
});

/**
 * Fewer, larger chunks for the back-office (docs/performance.md, "Back-office chunks"): the server speaks HTTP/1.1, so
 * a browser fetches at most six files at a time and every further file costs a round trip. Left to itself the bundler
 * cut the back-office's first screen into 34 files and the signed-in invoices list into 60 more (most under 2 KB).
 * Here:
 * - React, shared by both pages, is one file;
 * - everything the back-office entry loads at once is one file (`shell`), apart from what the payment form
 *   needs (its own code and the contracts' helpers it shares), so that the payment form loads no back-office code;
 * - the component library's parts that the landing screens (Login; the signed-in layout with the transactions
 *   list) use are one file each (`ui-login`, with Login's shared app modules; `ui`), those only other screens use
 *   another (`ui-more`);
 * - the signed-in layout and the transactions list with the app modules and the contracts' modules only they use
 *   are one file (`signed-in`): the list loads 10 files instead of 21, each a round trip on a slow network, and no
 *   zod (the contracts' modules it uses have no schema: invoice-list, uuid, dates, reference-headers);
 * - zod is a file of its own (`zod`), for the screens with forms;
 * - the charts (Monitoring) and the date pickers stay in files of their own, loaded only by the screens that
 *   show them.
 * Each group takes only the modules its test names (`includeDependenciesRecursively: false`), so a library group
 * never drags in the component library or the app.
 */
function chunkGroups(landing: { login: (id: string) => boolean; signedIn: (id: string) => boolean }) {
  const nm = (pkgs: string) => new RegExp(`[\\\\/]node_modules[\\\\/](?:${pkgs})[\\\\/]`);
  const react = nm('react|react-dom|scheduler');
  const zod = nm('zod');
  // a module of the signed-in landing screens (layout, transactions list) that Login does not use, of the app
  const landingOnly = (id: string) =>
    landing.signedIn(id) &&
    !landing.login(id) &&
    !id.startsWith('\0') &&
    !/[\\/]node_modules[\\/]/.test(id) &&
    !paymentForm.test(id) &&
    !backOfficeEntry.test(id);
  const bundlerRuntime = /^\0rolldown[\\/]runtime|vite[\\/](?:preload-helper|modulepreload-polyfill)/;
  const paymentForm =
    /[\\/]src[\\/]payment-form[\\/]|[\\/]node_modules[\\/](?:i18next|country-flag-icons)[\\/]|[\\/]contracts[\\/]src[\\/](?:money|countdown|phone|card)\.ts$/;
  const backOfficeEntry = /[\\/]src[\\/]app[\\/]main\.tsx$|\.html$/;
  // the back-office's shared modules; the settlement dialog (a form with zod) is loaded on its own, when opened
  const appShared = /[\\/]apps[\\/]web[\\/]src[\\/](?:components|lib)[\\/](?!settlement-dialog\.)/;
  const ui = nm(
    '@mantine/core|@mantine/hooks|@mantine/store|@mantine/notifications|@tanstack/query-core|@tanstack/react-query|@floating-ui/[a-z-]+|react-remove-scroll|react-remove-scroll-bar|react-style-singleton|use-callback-ref|use-sidecar|get-nonce|tslib|detect-node-es|aria-hidden|react-number-format|react-textarea-autosize|use-composed-ref|use-isomorphic-layout-effect|use-latest|clsx|@tabler/icons-react|react-transition-group|@babel/runtime|dom-helpers',
  );
  return [
    { name: 'react', test: (id: string) => react.test(id) || bundlerRuntime.test(id), priority: 50 },
    {
      name: 'shell',
      tags: ['$initial' as const],
      test: (id: string) => !id.startsWith('\0') && !paymentForm.test(id) && !backOfficeEntry.test(id),
      priority: 40,
    },
    {
      name: 'charts',
      test: nm(
        'recharts|@mantine/charts|d3-[a-z-]+|victory-vendor|decimal\\.js-light|es-toolkit|immer|reselect|@reduxjs/toolkit|redux|redux-thunk|react-redux|eventemitter3|use-sync-external-store|tiny-invariant|react-is',
      ),
      priority: 30,
    },
    { name: 'dates', test: nm('@mantine/dates|dayjs'), priority: 30 },
    // Login's parts of the component library and of the app's shared modules (the signed-in screens use them too)
    {
      name: 'ui-login',
      test: (id: string) => (ui.test(id) || appShared.test(id)) && landing.login(id),
      priority: 21,
    },
    { name: 'ui', test: (id: string) => ui.test(id) && landing.signedIn(id), priority: 20 },
    { name: 'ui-more', test: ui, priority: 19 },
    // the signed-in layout and the transactions list with the app's modules and the contracts' modules they use (none
    // with zod): one file
    { name: 'signed-in', test: landingOnly, priority: 12 },
    // the schemas' library, for the screens with forms (Login's among them); the first signed-in screen needs none
    { name: 'zod', test: zod, priority: 13 },
  ];
}

/**
 * The modules the landing screens need, for the chunk groups above: Login, and the signed-in layout with the
 * transactions list (where Login leads). The component library is imported through its index, which names every
 * component, so its modules are followed from the names the app's modules import rather than from that index.
 */
function landingScreens() {
  const screens = {
    login: ['/src/features/auth/pages/login-page.tsx'],
    signedIn: ['/src/app/layout/app-layout.tsx', '/src/features/invoices/pages/invoices-page.tsx'],
  };
  const kebab = (n: string) => n.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  const libraries: Record<string, (name: string) => string | null> = {
    '@mantine/core': (n) => (/^[A-Z]/.test(n) ? `/@mantine/core/esm/components/${n}/${n}.mjs` : null),
    '@mantine/hooks': (n) => (/^use[A-Z]/.test(n) ? `/@mantine/hooks/esm/${kebab(n)}/${kebab(n)}.mjs` : null),
    '@tabler/icons-react': (n) => (/^Icon[A-Z0-9]/.test(n) ? `/@tabler/icons-react/dist/esm/icons/${n}.mjs` : null),
  };
  // (the hooks' index is followed: the components import their hooks through it, and they are small)
  const libraryIndex =
    /\/node_modules\/(?:@mantine\/core\/esm\/index\.mjs|@tabler\/icons-react\/dist\/esm\/tabler-icons-react\.mjs)$/;
  const importRe = /import\s*\{([^}]*)\}\s*from\s*["']([^"']+)["']/g;
  const posix = (id: string) => id.replaceAll('\\', '/');
  const named = new Map<string, string[]>(); // app module -> the library modules of the names it imports
  const found = { login: new Set<string>(), signedIn: new Set<string>() };
  const plugin: Plugin = {
    name: 'paydesk-landing-screens',
    apply: 'build',
    transform(code, id) {
      if (!/[\\/]apps[\\/]web[\\/]src[\\/].*\.tsx?$/.test(id)) return;
      const paths: string[] = [];
      for (const [, names, from] of code.matchAll(importRe)) {
        const toPath = libraries[from!];
        for (const name of toPath ? names!.split(',') : []) {
          const path = toPath!(name.trim().split(/\s+as\s+/)[0]!);
          if (path) paths.push(path);
        }
      }
      named.set(posix(id), paths);
    },
    buildEnd() {
      const ids = [...this.getModuleIds()];
      const byPath = (path: string) => ids.find((id) => posix(id).endsWith(path));
      for (const [screen, paths] of Object.entries(screens) as [keyof typeof screens, string[]][]) {
        const seen = found[screen];
        seen.clear();
        const todo = paths.map(byPath).filter((id): id is string => id !== undefined);
        if (todo.length !== paths.length) this.warn(`landing screen ${screen}: ${paths.join(', ')} not all found`);
        while (todo.length) {
          const id = todo.pop()!;
          if (seen.has(id)) continue;
          seen.add(id);
          for (const dep of this.getModuleInfo(id)?.importedIds ?? [])
            if (!libraryIndex.test(posix(dep))) todo.push(dep);
          for (const path of named.get(posix(id)) ?? []) {
            const dep = byPath(path);
            if (dep) todo.push(dep);
          }
        }
      }
    },
  };
  return { plugin, login: (id: string) => found.login.has(id), signedIn: (id: string) => found.signedIn.has(id) };
}

/**
 * route-preloads.json beside index.html: for each landing address, the files of its screens that index.html does
 * not load already (their chunks and the chunks those import, and their styles). The server names them in the
 * index.html it sends for that address (`<link rel="modulepreload">`), so that the browser fetches them with the
 * entry instead of after the entry has run (docs/performance.md, "Landing files named in index.html").
 * `signedIn` is hinted only to a browser with a session cookie.
 */
function routePreloads(): Plugin {
  const screens = {
    public: { '/login': ['/src/features/auth/pages/login-page.tsx'] },
    signedIn: { '/invoices': ['/src/app/signed-in-screens.ts'] },
  };
  return {
    name: 'paydesk-route-preloads',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      const entry = chunks.find((c) => c.isEntry && c.facadeModuleId?.replaceAll('\\', '/').endsWith('/index.html'));
      if (!entry) return;
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      const closure = (files: string[], seen = new Set<string>()) => {
        for (const f of files) {
          if (seen.has(f)) continue;
          seen.add(f);
          closure(byFile.get(f)?.imports ?? [], seen);
        }
        return seen;
      };
      const initial = closure([entry.fileName]);
      const preloads = (paths: Record<string, string[]>) =>
        Object.fromEntries(
          Object.entries(paths).map(([address, modules]) => {
            const own = chunks.filter((c) =>
              modules.some((m) => c.facadeModuleId?.replaceAll('\\', '/').endsWith(`/apps/web${m}`)),
            );
            if (own.length !== modules.length) this.error(`route preloads: not every screen of ${address} is a chunk`);
            const files = [...closure(own.map((c) => c.fileName))].filter((f) => !initial.has(f));
            const css = files.flatMap((f) => [...(byFile.get(f)?.viteMetadata?.importedCss ?? [])]);
            return [address, { js: files, css }];
          }),
        );
      this.emitFile({
        type: 'asset',
        fileName: 'route-preloads.json',
        source: JSON.stringify({ public: preloads(screens.public), signedIn: preloads(screens.signedIn) }, null, 2),
      });
    },
  };
}

/**
 * The back-office's first paint is the loader index.html draws itself (inline styles), not the app: its stylesheet
 * must not hold that paint (docs/performance.md, "Loader painted before the stylesheet": on a slow phone the page
 * stayed blank ~2 s while the stylesheet shared the link with the scripts). The entry's `<link rel="stylesheet">`
 * becomes a preload (fetched at once, blocking nothing) marked `data-entry-style`; main.tsx applies it, in the same
 * place in <head> (so the cascade is as before: the theme's variables, written inside #root, still come after it), and
 * renders the app once it has loaded. Build only: in dev the styles come with the modules.
 */
function entryStylesAfterFirstPaint(): Plugin {
  return {
    name: 'paydesk-entry-styles',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!ctx.filename.replaceAll('\\', '/').endsWith('/index.html')) return html;
        const out = html.replace(
          /<link rel="stylesheet"( crossorigin)? href="([^"]+\.css)">/g,
          '<link rel="preload" as="style"$1 href="$2" data-entry-style>',
        );
        if (out === html) throw new Error('entry styles: index.html has no stylesheet link to turn into a preload');
        return out;
      },
    },
  };
}

/**
 * The back-office imports Mantine's styles per component (src/app/mantine-styles.ts) instead of the whole
 * @mantine/core/styles.css. This check fails the build when a component whose classes the bundle uses has no file
 * there, or when the files are not in the order of styles.css (which is those files one after another).
 */
function mantineStyles(): Plugin {
  const cls = /m_[0-9a-f]{6,8}\b/g;
  return {
    name: 'paydesk-mantine-styles',
    apply: 'build',
    generateBundle(_options, bundle) {
      const posix = (id: string) => id.replaceAll('\\', '/');
      const ids = [...this.getModuleIds()].map(posix);
      const list = ids.find((id) => id.endsWith('/src/app/mantine-styles.ts'));
      if (!list || ids.some((id) => id.endsWith('/@mantine/core/styles.css'))) return;
      const dir = path.dirname(createRequire(import.meta.url).resolve('@mantine/core/styles.css'));
      const all = fs.readFileSync(path.join(dir, 'styles.css'), 'utf8');
      const read = (file: string) => fs.readFileSync(path.join(dir, 'styles', file), 'utf8');
      const files = fs.readdirSync(path.join(dir, 'styles')).filter((f) => /^[^.]+\.css$/.test(f));
      const position = new Map(files.map((f) => [f, all.indexOf(read(f).trim().slice(0, 200))]));
      const imported = (this.getModuleInfo(ids.find((id) => id === list)!)?.importedIds ?? [])
        .map(posix)
        .filter((id) => id.includes('/@mantine/core/styles/'))
        .map((id) => path.basename(id));
      const js = Object.values(bundle)
        .map((c) => (c.type === 'chunk' ? c.code : ''))
        .join('\n');
      const used = new Set(js.match(cls));
      const missing = files
        .filter((f) => !imported.includes(f) && (read(f).match(cls) ?? []).some((c) => used.has(c)))
        .sort((a, b) => position.get(a)! - position.get(b)!);
      if (missing.length)
        this.error(
          `src/app/mantine-styles.ts lacks the styles of components in use: add ${missing
            .map((f) => `'@mantine/core/styles/${f}'`)
            .join(', ')} (in the order of @mantine/core/styles.css)`,
        );
      const misplaced = imported.find((f, i) => i > 0 && position.get(f)! < position.get(imported[i - 1]!)!);
      if (misplaced)
        this.error(`src/app/mantine-styles.ts: '${misplaced}' is out of the order of @mantine/core/styles.css`);
    },
  };
}

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
