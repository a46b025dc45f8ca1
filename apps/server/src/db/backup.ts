import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { reconcileLedger, type LedgerFindings } from '../modules/ledger/reconcile';
import { dumpDataDirTo } from './pglite-dump';
import { recordAudit, SYSTEM_ACTOR } from '../modules/audit/service';
import {
  acquireLock,
  buildMigrations,
  CONTROL_SOCKET_FILE,
  createDb,
  DataDirLockedError,
  runMigrations,
} from './create-db';

/*
 * Backups of the embedded database (docs/operations.md, "Back up"): `npm run backup -- <folder>` and
 * `npm run restore -- <folder>`. A backup is PGlite's dump of its data folder (dumpDataDir, a gzipped tar), taken
 * while no query runs: of a running server through its embedded database process (db/pglite-process.ts, the control
 * socket), of a stopped one by opening the folder under its lock. Either way it is the folder as a crash at that
 * instant would leave it, write-ahead log included, so a restore recovers every transaction committed before it.
 * Copying the folder's files instead would not be: the running database writes them while they are read.
 *
 * Each backup is two files: `paydesk-<time>.tar.gz` and its manifest `paydesk-<time>.json` (size, SHA-256, the
 * newest migration in it). The master key is not in a backup (keep it apart: docs/data-encryption.md).
 */

export const MANIFEST_FORMAT = 'paydesk-embedded-backup/1';

export type BackupManifest = {
  format: typeof MANIFEST_FORMAT;
  /** the dump's file name, in the manifest's folder */
  file: string;
  bytes: number;
  sha256: string;
  createdAt: string;
  /** journal time of the newest migration the database had applied */
  newestMigration: number;
  /** a running server's database, or a stopped data folder */
  taken: 'from the running server' | 'from the stopped data folder';
};

export class BackupError extends Error {}

const sha256Of = async (file: string) => {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
};

/** Asks the running server's embedded database for a dump into `file` (null: no server runs on this folder). */
async function dumpFromServer(dataDir: string, file: string): Promise<{ newestMigration: number } | null> {
  let socketPath: string;
  try {
    socketPath = fs.readFileSync(path.join(dataDir, CONTROL_SOCKET_FILE), 'utf8').trim();
  } catch {
    return null;
  }
  const reply = await new Promise<string | null>((resolve, reject) => {
    const socket = net.connect(socketPath);
    let text = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`${JSON.stringify({ op: 'backup', file })}\n`));
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('end', () => resolve(text));
    socket.on('error', (err: NodeJS.ErrnoException) =>
      // a file left by a server that is gone: the folder is not in use
      err.code === 'ENOENT' || err.code === 'ECONNREFUSED' ? resolve(null) : reject(err),
    );
  });
  if (reply === null) return null;
  const answer = JSON.parse(reply) as { ok?: boolean; newestMigration?: number; error?: string };
  if (!answer.ok) throw new BackupError(`the server could not take the backup: ${answer.error ?? reply}`);
  return { newestMigration: answer.newestMigration ?? 0 };
}

/** Dumps a data folder no server uses, holding its lock meanwhile. */
async function dumpStopped(dataDir: string, file: string): Promise<{ newestMigration: number }> {
  if (!fs.existsSync(path.join(dataDir, 'pgdata'))) throw new BackupError(`no embedded database in ${dataDir}`);
  const release = acquireLock(dataDir);
  try {
    const db = await PGlite.create(path.join(dataDir, 'pgdata'));
    try {
      return await dumpDataDirTo(db, file);
    } finally {
      await db.close();
    }
  } finally {
    release();
  }
}

/** Takes a backup of the embedded database in `dataDir` into `folder` (created if need be). */
export async function takeBackup(dataDir: string, folder: string, now = new Date()): Promise<BackupManifest> {
  fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  const name = `paydesk-${stamp}`;
  const file = path.join(folder, `${name}.tar.gz`);
  if (fs.existsSync(file)) throw new BackupError(`${file} exists already`);
  const fromServer = await dumpFromServer(dataDir, file);
  const { newestMigration } = fromServer ?? (await dumpStopped(dataDir, file));
  const manifest: BackupManifest = {
    format: MANIFEST_FORMAT,
    file: path.basename(file),
    bytes: fs.statSync(file).size,
    sha256: await sha256Of(file),
    createdAt: now.toISOString(),
    newestMigration,
    taken: fromServer ? 'from the running server' : 'from the stopped data folder',
  };
  fs.writeFileSync(path.join(folder, `${name}.json`), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
  return manifest;
}

/** The backup a restore takes: the manifest named, or the newest in the folder. */
export function findBackup(folder: string, manifestName?: string): { manifest: BackupManifest; dump: string } {
  if (!fs.existsSync(folder) || !fs.statSync(folder).isDirectory()) throw new BackupError(`no folder ${folder}`);
  const names = manifestName
    ? [manifestName]
    : fs
        .readdirSync(folder)
        .filter((n) => /^paydesk-.*\.json$/.test(n))
        .sort();
  const name = names.at(-1);
  if (!name) throw new BackupError(`no backup (paydesk-*.json) in ${folder}`);
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(folder, name), 'utf8')) as BackupManifest;
  } catch (err) {
    throw new BackupError(`${name} is not a backup manifest: ${(err as Error).message}`);
  }
  if (manifest.format !== MANIFEST_FORMAT || typeof manifest.file !== 'string' || manifest.file.includes('/')) {
    throw new BackupError(`${name} is not a backup manifest of this product (${MANIFEST_FORMAT})`);
  }
  return { manifest, dump: path.join(folder, manifest.file) };
}

export type RestoreReport = { manifest: BackupManifest; books: LedgerFindings; keptAs: string | null };

/**
 * Brings a backup back into `dataDir`, whose server must be stopped. The dump's checksum is verified, it is opened in
 * a folder of its own, migrated to this build's schema, its books reconciled and the restore recorded in its audit
 * trail (`database.restored`) first; only then does the current database move aside (kept as
 * `pgdata.before-restore-<time>`, to be deleted by hand) and the restored one take its place. A backup whose books
 * do not reconcile is not put in place unless forced; one from a release newer than this build is refused (its schema
 * is not this build's).
 */
export async function restoreBackup(
  dataDir: string,
  folder: string,
  opts: { manifest?: string; now?: Date; force?: boolean } = {},
): Promise<RestoreReport> {
  const { manifest, dump } = findBackup(folder, opts.manifest);
  if (!fs.existsSync(dump)) throw new BackupError(`${manifest.file} is missing from ${folder}`);
  const sha = await sha256Of(dump);
  if (sha !== manifest.sha256 || fs.statSync(dump).size !== manifest.bytes) {
    throw new BackupError(`${manifest.file} does not match its manifest (SHA-256 ${sha}): the copy is damaged`);
  }
  if (manifest.newestMigration > Math.max(...buildMigrations())) {
    throw new BackupError('the backup was taken by a newer release than this build: restore it with that release');
  }
  let release: () => void;
  try {
    release = acquireLock(dataDir);
  } catch (err) {
    if (err instanceof DataDirLockedError) throw new BackupError(`${err.message} A restore needs the server stopped.`);
    throw err;
  }
  const stamp = (opts.now ?? new Date()).toISOString().replace(/[:.]/g, '-');
  const restoring = path.join(dataDir, `pgdata.restoring-${stamp}`);
  try {
    const db = await PGlite.create(restoring, { loadDataDir: new Blob([fs.readFileSync(dump)]) });
    let books: LedgerFindings;
    try {
      const dbh = await createDb({ pglite: db, poolMax: 1 });
      try {
        // brought to this build's schema first (as the next start would), so that the checks below read it as it is
        await runMigrations(dbh);
        books = await reconcileLedger(dbh.db);
        if ((books.drift.length || books.unbalanced.length) && !opts.force) {
          throw new BackupError(
            `the backup's books do not reconcile (${books.drift.length} balances drift, ${books.unbalanced.length} ` +
              'books do not sum to zero): nothing was changed; restore it anyway with --force',
          );
        }
        // the restored database says so itself: its audit trail is the backup's, and then this
        await recordAudit(
          dbh.db,
          SYSTEM_ACTOR,
          {
            action: 'database.restored',
            targetType: 'backup',
            targetId: manifest.file,
            before: { backupTakenAt: manifest.createdAt, sha256: manifest.sha256 },
            after: { forced: !!opts.force, drift: books.drift.length, unbalanced: books.unbalanced.length },
          },
          opts.now ?? new Date(),
        );
      } finally {
        await dbh.close();
      }
    } finally {
      await db.close();
    }
    const current = path.join(dataDir, 'pgdata');
    const keptAs = fs.existsSync(current) ? path.join(dataDir, `pgdata.before-restore-${stamp}`) : null;
    if (keptAs) fs.renameSync(current, keptAs);
    fs.renameSync(restoring, current);
    return { manifest, books, keptAs };
  } catch (err) {
    fs.rmSync(restoring, { recursive: true, force: true });
    throw err;
  } finally {
    release();
  }
}
