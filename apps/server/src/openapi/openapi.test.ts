import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { API_SURFACES, WEBHOOK_TYPES, routeKey, webhookPayload, type RouteSpec } from '@paydesk/contracts';
import { API_ROUTES } from '@paydesk/contracts/routes';
import { createTestApp, type TestApp } from '../../test/harness';
import { TMP_DIR } from '../../test/paths';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../../../..');
const REDOCLY = path.join(ROOT, 'node_modules/.bin/redocly');

type Doc = {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, { operationId: string; summary: string; tags: string[]; security: unknown[] }>>;
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const get = async (url: string) => {
  const res = await t.app.inject({ method: 'GET', url });
  expect(res.statusCode, url).toBe(200);
  return res.json() as Doc;
};

/** `redocly lint` (recommended ruleset + the repository's redocly.yaml) on a served document: its problems. */
async function lint(doc: Doc, name: string) {
  fs.mkdirSync(TMP_DIR, { recursive: true });
  const file = path.join(TMP_DIR, `openapi-${name}-${process.pid}.json`);
  fs.writeFileSync(file, JSON.stringify(doc));
  try {
    const { stdout } = await run(
      REDOCLY,
      ['lint', file, '--config', path.join(ROOT, 'redocly.yaml'), '--format', 'json'],
      { cwd: ROOT, env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
    ).catch((e: { stdout?: string }) => ({ stdout: e.stdout ?? '' }));
    const out = JSON.parse(stdout) as { totals: { errors: number; warnings: number }; problems: unknown[] };
    return out;
  } finally {
    fs.rmSync(file, { force: true });
  }
}

describe('OpenAPI documents', () => {
  it('every API route the server registers comes from the route table, and every table route is registered', () => {
    const table = (Object.values(API_ROUTES) as RouteSpec[]).map(routeKey).sort();
    expect([...t.app.apiRoutes].sort()).toEqual(table);
  });

  it('the whole API at /api/docs/json passes redocly lint (recommended): 0 errors, 0 warnings', async () => {
    const doc = await get('/api/docs/json');
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: 'http://localhost:3000', description: expect.any(String) }]);
    const result = await lint(doc, 'all');
    expect(result.problems).toEqual([]);
    expect(result.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 60_000);

  it.each(API_SURFACES)(
    'the %s API is also a document of its own that passes lint',
    async (surface) => {
      const doc = await get(`/api/docs/${surface}.json`);
      const ops = Object.values(doc.paths).flatMap((p) => Object.values(p));
      expect(ops.length).toBeGreaterThan(0);
      const result = await lint(doc, surface);
      expect(result.problems).toEqual([]);
    },
    60_000,
  );

  it('every operation has an operationId, a summary, tags and a security requirement (or none, said so)', async () => {
    const doc = await get('/api/docs/json');
    const ids = new Set<string>();
    for (const [p, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        expect(op.operationId, `${method} ${p}`).toMatch(/^[a-z][A-Za-z0-9]+$/);
        expect(ids.has(op.operationId), `${op.operationId} is unique`).toBe(false);
        ids.add(op.operationId);
        expect(op.summary, `${method} ${p}`).toBeTruthy();
        expect(op.tags.length, `${method} ${p}`).toBeGreaterThan(0);
        expect(Array.isArray(op.security), `${method} ${p}`).toBe(true);
      }
    }
    // the public payment form says it needs no credentials
    expect(doc.paths['/api/payments/form/{formId}/init']!.post!.security).toEqual([]);
  });

  it('every example is valid against the schema it illustrates', () => {
    for (const spec of Object.values(API_ROUTES) as RouteSpec[]) {
      const key = routeKey(spec);
      if (spec.examples?.request !== undefined)
        expect(spec.body!.safeParse(spec.examples.request).error, key).toBe(undefined);
      if (spec.examples?.response !== undefined) {
        const ok = Object.values(spec.responses).find((r): r is z.ZodType => !!r && !('file' in r));
        expect(ok!.safeParse(spec.examples.response).error, key).toBe(undefined);
      }
    }
  });

  it('documents the callbacks as webhooks (merchant and whole documents), with the payload the server builds', async () => {
    for (const url of ['/api/docs/json', '/api/docs/merchant.json']) {
      const doc = (await get(url)) as Doc & {
        info: { description: string };
        webhooks: Record<string, { post: { parameters: { name: string }[]; description: string } }>;
        components: { schemas: Record<string, { required: string[] }> };
      };
      expect(Object.keys(doc.webhooks).sort(), url).toEqual([...WEBHOOK_TYPES].sort());
      for (const hook of Object.values(doc.webhooks)) {
        expect(hook.post.parameters.map((p) => p.name)).toEqual([
          'webhook-id',
          'webhook-timestamp',
          'webhook-signature',
        ]);
        expect(hook.post.description).toMatch(/retried after 30 s, doubling .* up to every 60 min, for 72 h/);
      }
      expect(doc.components.schemas.WebhookPayload!.required.sort()).toEqual(Object.keys(webhookPayload.shape).sort());
      // the quickstart and the rules an integrator needs
      expect(doc.info.description).toMatch(/## Quickstart/);
      expect(doc.info.description).toMatch(/409 IDEMPOTENCY_CONFLICT/);
      expect(doc.info.description).toMatch(/execute once/);
    }
    const backOffice = (await get('/api/docs/back-office.json')) as Doc & { webhooks?: unknown };
    expect(backOffice.webhooks).toBeUndefined();
  });

  it('the developer page renders with the bundled renderer, nothing from elsewhere', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('js/scalar.js');
    expect(res.body).not.toMatch(/https?:\/\/(cdn|fonts)\./);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("connect-src 'self'");
    const js = await t.app.inject({ method: 'GET', url: '/api/docs/js/scalar.js' });
    expect(js.statusCode).toBe(200);
    expect(js.headers['cache-control']).toMatch(/max-age=/);
  });
});
