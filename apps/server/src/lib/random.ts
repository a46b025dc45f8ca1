import { randomBytes } from 'node:crypto';

const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let offset = 0;

/**
 * `n` bytes (n ≤ 4096) from the system's cryptographic generator, drawn 4 KiB at a time: a draw costs about the same
 * for 29 bytes as for 4 KiB (node's randomUUID keeps a cache the same way). Every byte is handed out once. The
 * result is a view into the pool: read it, never write to it.
 */
export function secureRandom(n: number): Buffer {
  if (n > POOL_BYTES) return randomBytes(n);
  if (offset + n > pool.length) {
    pool = randomBytes(POOL_BYTES);
    offset = 0;
  }
  const out = pool.subarray(offset, offset + n);
  offset += n;
  return out;
}
