import { availableParallelism } from 'node:os';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import pLimit from 'p-limit';
import { AppError } from './errors';

// OWASP Password Storage Cheat Sheet: scrypt N=2^17, r=8, p=1.
const DEFAULT_COST = 17;
const R = 8;
const P = 1;
const KEYLEN = 64;
const MAXMEM = 256 * 1024 * 1024;

/**
 * Password hashing has a queue and threads of its own. scrypt takes a whole core for ~0.2 s; on libuv's
 * thread pool (4 threads, the pool that also verifies session tokens with WebCrypto and reads files) a burst
 * of sign-ins would starve every signed-in user's request. Here at most half the cores hash at a time (one on a
 * 2-core machine), each on a worker thread of its own that runs at a lower scheduling priority (nice 10), so
 * the event loop keeps its core and wins any contention for the other.
 * PASSWORD_HASH_CONCURRENCY overrides the count (the sign-in benchmark uses it to compare).
 */
const HASH_CONCURRENCY =
  Number(process.env.PASSWORD_HASH_CONCURRENCY) || Math.max(1, Math.floor(availableParallelism() / 2));
const hashing = pLimit(HASH_CONCURRENCY);
const HASH_THREAD_NICE = 10;

// CommonJS evaluated in the worker: no file to locate from source (tsx) or from the compiled bundle
const HASH_THREAD_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { scryptSync } = require('node:crypto');
try { require('node:os').setPriority(${HASH_THREAD_NICE}); } catch {}
parentPort.on('message', (m) => {
  try {
    const key = scryptSync(m.password, m.salt, m.keylen, { N: m.n, r: m.r, p: m.p, maxmem: m.maxmem });
    parentPort.postMessage({ key });
  } catch (err) {
    parentPort.postMessage({ error: err.message });
  }
});`;

type HashJob = { password: string; salt: Buffer; keylen: number; n: number; r: number; p: number; maxmem: number };
/** Idle hashing threads; p-limit keeps at most HASH_CONCURRENCY of them busy, so no more are ever made. */
const idle: Worker[] = [];
/** A hash takes ~0.2 s; one that has not answered in this long is stuck: its thread is ended, the job fails. */
const HASH_TIMEOUT_MS = 30_000;

function newHashThread(): Worker {
  const worker = new Worker(HASH_THREAD_SOURCE, { eval: true });
  worker.unref(); // an idle hashing thread never keeps the process alive
  // a thread that dies while idle leaves the pool (and never takes the process down with an unhandled 'error')
  const drop = () => {
    const at = idle.indexOf(worker);
    if (at >= 0) idle.splice(at, 1);
  };
  worker.on('error', drop);
  worker.on('exit', drop);
  return worker;
}

function runOnHashThread(job: HashJob): Promise<Buffer> {
  const worker = idle.pop() ?? newHashThread();
  return new Promise<Buffer>((resolve, reject) => {
    const settle = (back: boolean) => {
      clearTimeout(timer);
      worker.off('message', done);
      worker.off('error', failed);
      worker.off('exit', exited);
      if (back) idle.push(worker);
    };
    const done = (m: { key?: Uint8Array; error?: string }) => {
      settle(true);
      if (m.key) resolve(Buffer.from(m.key));
      else reject(new Error(m.error ?? 'scrypt failed'));
    };
    const failed = (err: Error) => {
      settle(false);
      reject(err); // the thread is gone; the next job makes a new one
    };
    const exited = (code: number) => failed(new Error(`the hashing thread exited (${code})`));
    const timer = setTimeout(() => {
      settle(false);
      void worker.terminate();
      reject(new Error(`password hashing took over ${HASH_TIMEOUT_MS} ms`));
    }, HASH_TIMEOUT_MS);
    timer.unref();
    worker.on('message', done);
    worker.on('error', failed);
    worker.on('exit', exited);
    worker.postMessage(job);
  });
}

/** Sign-in attempts admitted to wait for the queue; past this a burst is refused with 503, unhashed. */
export const MAX_QUEUED_ATTEMPTS = 64;
let admitted = 0;

/**
 * Runs a password attempt (sign-in, password change) if the hashing queue has room: the caller is
 * refused at once, before any attempt is counted, when MAX_QUEUED_ATTEMPTS are already waiting.
 */
export async function withPasswordSlot<T>(attempt: () => Promise<T>): Promise<T> {
  if (admitted >= MAX_QUEUED_ATTEMPTS) {
    throw new AppError('SERVICE_BUSY', 'Too many sign-ins at once. Try again in a few seconds.', undefined, {
      'retry-after': '2',
    });
  }
  admitted++;
  try {
    return await attempt();
  } finally {
    admitted--;
  }
}

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return hashing(() =>
    runOnHashThread({ password: password.normalize('NFKC'), salt, keylen: KEYLEN, n, r, p, maxmem: MAXMEM }),
  );
}

/**
 * log2 of scrypt's N for new hashes: PASSWORD_HASH_COST, 17 by default; 14 (eight times cheaper) at least and only
 * outside production, where the test suites set it so that their thousand sign-ins do not take minutes. A stored hash
 * names its own N, so a hash is verified at the cost it was made with.
 */
export function passwordHashCost(env: NodeJS.ProcessEnv = process.env): number {
  if (env.PASSWORD_HASH_COST === undefined || env.PASSWORD_HASH_COST === '') return DEFAULT_COST;
  const cost = Number(env.PASSWORD_HASH_COST);
  const least = env.NODE_ENV === 'production' ? DEFAULT_COST : 14;
  if (!Number.isInteger(cost) || cost < least || cost > 20) {
    throw new Error(`PASSWORD_HASH_COST must be an integer from ${least} to 20 (log2 of scrypt's N)`);
  }
  return cost;
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const N = 2 ** passwordHashCost();
  const key = await derive(password, salt, N, R, P);
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [alg, n, r, p, salt, hash] = stored.split('$');
  if (alg !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await derive(password, Buffer.from(salt, 'base64'), Number(n), Number(r), Number(p));
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** Spend the same time on an unknown username as on a known one. */
let dummy: Promise<string> | undefined;
export async function burnPasswordTime(password: string) {
  dummy ??= hashPassword('not-a-real-password');
  await verifyPassword(password, await dummy);
}
