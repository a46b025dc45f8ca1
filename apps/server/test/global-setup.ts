import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { createDb, runMigrations } from '../src/db/create-db';
import { loadConfig } from '../src/config';
import { seedDemoIfEmpty } from '../src/db/seed';
import { createContext } from '../src/lib/context';
import { TMP_DIR, runFiles } from './paths';

/**
 * Migrates and seeds ONE template database per run; every test file clones it
 * (PGlite: a copy of its data folder; PostgreSQL: CREATE DATABASE … TEMPLATE).
 */
export default async function setup(project: TestProject) {
  // the template's demo users are hashed here, in this process (as vitest.config.ts sets it for the test files)
  process.env.PASSWORD_HASH_COST ??= '14';
  fs.mkdirSync(TMP_DIR, { recursive: true });
  const runId = `${process.pid}-${Date.now()}`;
  const { demo: DEMO_FILE, databases: DATABASES } = runFiles(runId);
  project.provide('demoFile', DEMO_FILE);
  const cleanFiles = () => {
    fs.rmSync(DEMO_FILE, { force: true });
    fs.rmSync(DATABASES, { recursive: true, force: true });
  };
  const url = process.env.DATABASE_URL;
  const config = loadConfig({ NODE_ENV: 'test' }, { workers: false, dataDir: TMP_DIR });
  if (url) {
    const name = `paydesk_tpl_${process.pid}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.query(`CREATE DATABASE ${name}`);
    const tplUrl = withDatabase(url, name);
    const dbh = await createDb({ databaseUrl: tplUrl });
    await runMigrations(dbh);
    await seedDemoIfEmpty(await createContext(dbh, config), { writeFile: DEMO_FILE });
    await dbh.close();
    project.provide('pgTemplate', name);
    return async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name}`).catch(() => undefined);
      await admin.end();
      cleanFiles();
    };
  }
  const pglite = await PGlite.create();
  const dbh = await createDb({ pglite });
  await runMigrations(dbh);
  await seedDemoIfEmpty(await createContext(dbh, config), { writeFile: DEMO_FILE });
  await dbh.close();
  const dump = await pglite.dumpDataDir('none');
  await pglite.close();
  // as a data folder: a test file's database is a copy of it (test/harness.ts createTestDb)
  const folder = path.join(DATABASES, 'template');
  fs.mkdirSync(DATABASES, { recursive: true });
  await (await PGlite.create(folder, { loadDataDir: dump })).close();
  project.provide('pgTemplate', '');
  project.provide('templateFolder', folder);
  return cleanFiles;
}

export function withDatabase(url: string, db: string) {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

/**
 * A new, empty database (no migration applied) on the server of `url`, named `<prefix>_<random>`: its address, and
 * the drop that ends it (closing whatever connections are left).
 */
export async function emptyDatabase(url: string, prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  return { url: withDatabase(url, name), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgTemplate: string;
    /** the embedded template as a data folder, to be copied (not opened: it stays as seeded) */
    templateFolder: string;
    demoFile: string;
  }
}

export { path };
