import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, loginAs, type TestApp } from '../../test/harness';
import { loadConfig } from '../config';
import { parseSpeedupsOff, SPEEDUPS } from './speedups';

describe('SPEEDUPS_OFF', () => {
  it('names speed-ups to turn off, or all; an unknown name stops the start', () => {
    expect([...parseSpeedupsOff(undefined)]).toEqual([]);
    expect([...parseSpeedupsOff(' first-calls , remembered-creates ')]).toEqual(['first-calls', 'remembered-creates']);
    expect(parseSpeedupsOff('all')).toEqual(new Set(Object.keys(SPEEDUPS)));
    expect(() => parseSpeedupsOff('first-calls,fast-mode')).toThrow(/SPEEDUPS_OFF names fast-mode; known: all, /);
    expect(loadConfig({ SPEEDUPS_OFF: 'landing-preloads' }).speedupsOff).toEqual(new Set(['landing-preloads']));
    expect(loadConfig({}).speedupsOff.size).toBe(0);
  });

  it('each speed-up has its section in docs/performance.md, titled as in lib/speedups.ts, and its row in the table', () => {
    const doc = fs.readFileSync(path.join(loadConfig({}).repoRoot, 'docs/performance.md'), 'utf8');
    for (const [name, title] of Object.entries(SPEEDUPS)) {
      expect(doc, name).toContain(`\n## ${title}\n`);
      expect(doc, name).toContain(`| \`${name}\` | ${title} |`);
      expect(doc, name).toContain(`SPEEDUPS_OFF=${name}`);
    }
  });
});

/**
 * The `remembered-merchants` speed-up (lib/scope.ts): a merchant a platform user named once is known to exist. The
 * answers are the same with it on and off, through a merchant created after the first lookups.
 */
describe('remembered merchants', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await loginAs(t.app, 'admin');
  });
  afterAll(async () => t?.close());

  for (const mode of ['on', 'off'] as const) {
    // the switch is read at each request: one app serves both (as a restart with SPEEDUPS_OFF would)
    const merchant = (merchantId: string) =>
      t.app.inject({ method: 'GET', url: `/api/v1/merchant/me?merchantId=${merchantId}`, headers: { cookie: admin } });

    it(`${mode}: a merchant is found from the moment it exists; an unknown id is 404 every time`, async () => {
      t.ctx.config.speedupsOff = new Set(mode === 'off' ? ['remembered-merchants'] : []);
      for (let i = 0; i < 2; i++) expect((await merchant(t.demo.merchantId)).statusCode).toBe(200);
      const id = randomUUID();
      for (let i = 0; i < 2; i++) {
        const res = await merchant(id);
        expect(res.statusCode).toBe(404);
        expect(res.json().error.message).toBe('Merchant not found');
      }
      // the same id, now a merchant: found at once
      await t.ctx.db.execute(
        sql`INSERT INTO merchants (id, name, webhook_secret) VALUES (${id}, ${`Speed-up ${mode}`}, 'whsec-test')`,
      );
      for (let i = 0; i < 2; i++) {
        const res = await merchant(id);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().data.name).toBe(`Speed-up ${mode}`);
      }
      // an id in capitals is the same merchant
      expect((await merchant(id.toUpperCase())).statusCode).toBe(200);
    });
  }
});
