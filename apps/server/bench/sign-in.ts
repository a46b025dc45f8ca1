/**
 * Sign-in under attack (issue: "sign-in starves everyone"). A signed-in user reads GET /api/v1/people/me while
 * 30 concurrent clients send wrong passwords (each request from another address, as a botnet would, so the
 * per-IP throttle does not stop them): the ratio of /me's p99 under attack to its p99 without is the figure
 * (target < 2×). The server runs in its own process on a fresh PostgreSQL database.
 *
 *   npm run bench:sign-in [-- --duration 15 --attackers 30 --readers 4]
 *   --hash-concurrency N sets PASSWORD_HASH_CONCURRENCY on the server (64 ≈ the old, unbounded hashing)
 */
import { parseArgs } from 'node:util';
import os from 'node:os';
// @ts-expect-error autocannon ships no types
import autocannon from 'autocannon';
import { eq } from 'drizzle-orm';
import { roles, users } from '../src/db/schema';
import { hashPassword } from '../src/lib/password';
import { createBenchDatabase, dropBenchDatabase, startServer } from './lib';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '15' },
    attackers: { type: 'string', default: '30' },
    readers: { type: 'string', default: '4' },
    'hash-concurrency': { type: 'string' },
  },
});
const dbName = `paydesk_bench_signin_${process.pid}`;
const PASSWORD = 'bench sign-in passphrase';

type Latency = { p50: number; p90: number; p99: number; max: number; requests: number; non2xx: number };

async function readMe(target: string, cookie: string, seconds: number): Promise<Latency> {
  const r = await autocannon({
    url: `${target}/api/v1/people/me`,
    connections: Number(args.readers),
    duration: seconds,
    headers: { cookie },
  });
  return {
    p50: r.latency.p50,
    p90: r.latency.p90,
    p99: r.latency.p99,
    max: r.latency.max,
    requests: r.requests.total,
    non2xx: r.non2xx,
  };
}

/** n clients in a loop, each request a wrong password from its own address; returns the status counts. */
function attack(target: string, n: number) {
  let stop = false;
  let seq = 0;
  const statuses = new Map<number, number>();
  const loops = Array.from({ length: n }, async () => {
    while (!stop) {
      const i = seq++;
      const ip = `198.18.${(i >> 8) & 255}.${i & 255}`;
      const res = await fetch(`${target}/api/v1/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
        body: JSON.stringify({ username: `attacker-${i % 500}`, password: `wrong-${i}` }),
      });
      await res.arrayBuffer();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    }
  });
  return {
    async end() {
      stop = true;
      await Promise.all(loops);
      return Object.fromEntries(statuses);
    },
  };
}

async function main() {
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    const { url, dbh } = await createBenchDatabase(dbName);
    const [role] = await dbh.db.select().from(roles).where(eq(roles.code, 'platform_admin'));
    await dbh.db.insert(users).values({
      username: 'reader',
      passwordHash: await hashPassword(PASSWORD),
      firstName: 'Bench',
      lastName: 'Reader',
      roleId: role!.id,
    });
    await dbh.close();

    const env: Record<string, string> = { WORKERS: 'false', TRUST_PROXY: 'true', REQUIRE_2FA_PLATFORM: 'false' };
    if (args['hash-concurrency']) env.PASSWORD_HASH_CONCURRENCY = args['hash-concurrency'];
    server = await startServer(url, env);
    const { target } = server;
    const login = await fetch(`${target}/api/v1/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'reader', password: PASSWORD }),
    });
    const cookie = login.headers
      .getSetCookie()
      .find((c) => c.startsWith('jwt='))!
      .split(';')[0]!;
    const seconds = Number(args.duration);

    await readMe(target, cookie, 3); // warm-up
    const load0 = os.loadavg()[0]!.toFixed(1);
    const calm = await readMe(target, cookie, seconds);
    const attackers = attack(target, Number(args.attackers));
    await new Promise((r) => setTimeout(r, 1000)); // let the burst build up
    const underAttack = await readMe(target, cookie, seconds);
    const statuses = await attackers.end();
    const calm2 = await readMe(target, cookie, seconds);

    const baseline = Math.max(calm.p99, calm2.p99);
    console.log(
      JSON.stringify(
        {
          hashConcurrency: args['hash-concurrency'] ?? 'default (half the cores)',
          cores: os.availableParallelism(),
          loadAverageBefore: load0,
          meWithoutAttack: calm,
          meUnderAttack: underAttack,
          meAfterAttack: calm2,
          signInAnswers: statuses,
          p99Ratio: Number((underAttack.p99 / baseline).toFixed(2)),
        },
        null,
        2,
      ),
    );
    console.log(
      `\n/me p99: ${baseline} ms calm → ${underAttack.p99} ms under ${args.attackers} concurrent wrong sign-ins ` +
        `(${(underAttack.p99 / baseline).toFixed(2)}×, target < 2×)`,
    );
  } finally {
    await server?.stop();
    await dropBenchDatabase(dbName);
  }
}

await main();
