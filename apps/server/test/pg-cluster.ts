import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './server-process';

/*
 * A PostgreSQL cluster of a test's own (PostgreSQL 15's initdb and pg_ctl, as Debian installs them), for what cannot
 * be done to the shared server: stopping and starting it under load. Run as the postgres user (from root through
 * runuser), on a free port of 127.0.0.1, in a temporary folder; trust authentication.
 */

const PGBIN = '/usr/lib/postgresql/15/bin';
const run = promisify(execFile);

const isRoot = process.getuid?.() === 0;
/** Whether this machine can run one: the binaries, and root (to become postgres) or postgres itself. */
export const canRunCluster =
  fs.existsSync(path.join(PGBIN, 'initdb')) && (isRoot || os.userInfo().username === 'postgres');

/** Runs a command as the postgres user (a bare name is one of PostgreSQL's binaries: initdb, pg_ctl…). */
const asPostgres = (cmd: string, args: string[]) => {
  const file = cmd.includes('/') ? cmd : path.join(PGBIN, cmd);
  return isRoot ? run('runuser', ['-u', 'postgres', '--', file, ...args]) : run(file, args);
};

export type Cluster = {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  /** the archived write-ahead log, when started with `archive` */
  walArchive: string;
  /** pg_basebackup of it (fast checkpoint, its WAL streamed along) into a new folder; returns the folder */
  baseBackup(): Promise<string>;
  /** a streaming replica of it: a base backup taken with -R (the standby's settings), started on a port of its own */
  replica(): Promise<Cluster>;
  /** keeps its processes (and the sessions it starts from now on) on these CPUs (taskset's list, e.g. "0") */
  pin(cpus: string): Promise<void>;
  start(): Promise<void>;
  /** pg_ctl stop: `fast` (sessions ended, a clean shutdown) or `immediate` (as a crash) */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  destroy(): Promise<void>;
};

/** A folder (or file) made by this process, handed to the postgres user. */
const toPostgres = async (p: string) => {
  if (isRoot) await run('chown', ['postgres', p]);
  return p;
};

/** A folder for a cluster, owned by postgres. */
const clusterDir = () => toPostgres(fs.mkdtempSync(path.join(os.tmpdir(), 'paydesk-pg-')));

/** What every cluster of the tests listens on: its own port on 127.0.0.1 and a socket in its folder. */
const listenConf = (dir: string, port: number) =>
  `\nport = ${port}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '${dir}'\n`;

/**
 * A new cluster, started. With `archive`, every completed WAL segment is copied into `walArchive` (what
 * point-in-time recovery replays).
 */
export async function startCluster(opts: { archive?: boolean } = {}): Promise<Cluster> {
  const dir = await clusterDir();
  const data = path.join(dir, 'data');
  const walArchive = path.join(dir, 'wal');
  const port = await freePort();
  await asPostgres('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  let conf = listenConf(dir, port);
  if (opts.archive) {
    fs.mkdirSync(walArchive);
    await toPostgres(walArchive);
    conf += `archive_mode = on\narchive_command = 'test ! -f ${walArchive}/%f && cp %p ${walArchive}/%f'\n`;
  }
  fs.appendFileSync(path.join(data, 'postgresql.conf'), conf);
  return clusterOf(dir, data, port, walArchive);
}

/**
 * A cluster restored from a base backup and `walArchive`, replayed up to `targetTime` (PostgreSQL's
 * recovery_target_time) and then promoted: point-in-time recovery, into a folder and port of its own.
 */
export async function restoreCluster(base: string, walArchive: string, targetTime: string): Promise<Cluster> {
  const dir = await clusterDir();
  const data = path.join(dir, 'data');
  const port = await freePort();
  await asPostgres('/bin/cp', ['-a', base, data]);
  fs.appendFileSync(
    path.join(data, 'postgresql.conf'),
    `${listenConf(dir, port)}archive_mode = off\nrestore_command = 'cp ${walArchive}/%f %p'\n` +
      `recovery_target_time = '${targetTime}'\nrecovery_target_action = 'promote'\n`,
  );
  fs.writeFileSync(path.join(data, 'recovery.signal'), '');
  await toPostgres(path.join(data, 'recovery.signal'));
  return clusterOf(dir, data, port, walArchive);
}

async function clusterOf(dir: string, data: string, port: number, walArchive: string): Promise<Cluster> {
  const start = async () => {
    await asPostgres('pg_ctl', ['-D', data, '-l', path.join(dir, 'log'), '-w', '-t', '120', 'start']);
  };
  const stop = async (mode: 'fast' | 'immediate' = 'fast') => {
    await asPostgres('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']);
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    walArchive,
    start,
    stop,
    async baseBackup() {
      const target = path.join(dir, `base-${Date.now()}`);
      const from = ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres'];
      await asPostgres('pg_basebackup', [...from, '-D', target, '-X', 'stream', '-c', 'fast']);
      return target;
    },
    async pin(cpus: string) {
      const postmaster = fs.readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]!.trim();
      const children = (await run('pgrep', ['-P', postmaster]).catch(() => ({ stdout: '' }))).stdout.split(/\s+/);
      for (const pid of [postmaster, ...children].filter(Boolean)) await run('taskset', ['-a', '-p', '-c', cpus, pid]);
    },
    async replica() {
      const replicaDir = await clusterDir();
      const replicaData = path.join(replicaDir, 'data');
      const replicaPort = await freePort();
      const from = ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres'];
      await asPostgres('pg_basebackup', [...from, '-D', replicaData, '-R', '-X', 'stream', '-c', 'fast']);
      // a reporting replica (docs/operations.md, "Read replicas"): it tells the primary which rows its queries still
      // read, so that replaying the primary's clean-up never waits behind an export
      fs.appendFileSync(
        path.join(replicaData, 'postgresql.conf'),
        `${listenConf(replicaDir, replicaPort)}hot_standby_feedback = on\n`,
      );
      return clusterOf(replicaDir, replicaData, replicaPort, '');
    },
    async destroy() {
      await stop('immediate').catch(() => undefined);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
