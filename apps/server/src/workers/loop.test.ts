import Fastify from 'fastify';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startLoop, type Loop, type TickResult } from './loop';
import { registerTraffic, Traffic, trafficOf } from './traffic';

const log = pino({ level: 'silent' });

/** A loop whose tick records when it ran (fake ms since the test began) and answers what `answer` says. */
function recorded(answer: (n: number) => TickResult, opts: Parameters<typeof startLoop>[4] = {}, interval = 100) {
  const at: number[] = [];
  const t0 = performance.now();
  const loop = startLoop(
    'loop-test',
    interval,
    log,
    async () => {
      at.push(Math.round(performance.now() - t0));
      return answer(at.length);
    },
    { firstDelayMs: interval, ...opts },
  );
  const gaps = () => at.slice(1).map((t, i) => t - at[i]!);
  return { at, gaps, loop };
}

describe('worker loop scheduling', () => {
  let loops: Loop[] = [];
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] });
  });
  afterEach(async () => {
    await Promise.all(loops.map((l) => l.stop()));
    loops = [];
    vi.useRealTimers();
  });

  it('without back-off options it ticks at its interval, and at once while a tick says there is more', async () => {
    const r = recorded((n) => n === 2 || n === 3);
    loops.push(r.loop);
    await vi.advanceTimersByTimeAsync(650);
    // 100; 200 said "more" → the next at once (a timer of 0, i.e. 1 ms); again; then every 100
    expect(r.at).toEqual([100, 200, 201, 202, 302, 402, 502, 602]);
  });

  it('an idle loop waits longer after each empty tick, up to its cap', async () => {
    const r = recorded(() => ({ done: 0 }), { maxIntervalMs: 800 });
    loops.push(r.loop);
    await vi.advanceTimersByTimeAsync(5000);
    expect(r.gaps().slice(0, 6)).toEqual([100, 200, 400, 800, 800, 800]);
  });

  it('work found brings the back-off back to the interval; more runs at once', async () => {
    // ticks 1–4 idle, 5 finds work, 6 finds more, 7–9 idle again
    const r = recorded((n) => (n === 5 ? { done: 3 } : n === 6 ? { done: 10, more: true } : { done: 0 }), {
      maxIntervalMs: 800,
    });
    loops.push(r.loop);
    await vi.advanceTimersByTimeAsync(4000);
    expect(r.gaps().slice(0, 8)).toEqual([100, 200, 400, 800, 100, 1, 100, 200]);
  });

  it('a nudge ends the back-off: the next tick comes within the interval, and the back-off starts over', async () => {
    const r = recorded(() => ({ done: 0 }), { maxIntervalMs: 1600 });
    loops.push(r.loop);
    await vi.advanceTimersByTimeAsync(3250);
    // waits 100, 200, 400, 800, 1600, 1600: the next tick would come at 4800
    expect(r.at).toEqual([100, 200, 400, 800, 1600, 3200]);
    r.at.length = 0;
    r.loop.nudge();
    await vi.advanceTimersByTimeAsync(800);
    expect(r.at).toEqual([3350, 3450, 3650, 4050]);
    // a nudge while the next tick is already due sooner than the interval changes nothing
    await vi.advanceTimersByTimeAsync(750); // 4800; the next tick is due at 4850
    r.loop.nudge();
    await vi.advanceTimersByTimeAsync(60);
    expect(r.at.at(-1)).toBe(4850);
  });

  it('a nudge during a tick keeps the next wait at the interval (that tick may have missed the new work)', async () => {
    const self: { loop?: Loop } = {};
    const r = recorded(
      (n) => {
        if (n === 4) self.loop!.nudge();
        return { done: 0 };
      },
      { maxIntervalMs: 1600 },
    );
    self.loop = r.loop;
    loops.push(r.loop);
    await vi.advanceTimersByTimeAsync(3000);
    expect(r.gaps().slice(0, 6)).toEqual([100, 200, 400, 100, 100, 200]);
  });

  it('a kick runs a tick at once and resets the back-off', async () => {
    const r = recorded(() => ({ done: 0 }), { maxIntervalMs: 1600 });
    loops.push(r.loop);
    await vi.advanceTimersByTimeAsync(1000); // 100, 200, 400, 800
    r.loop.kick();
    await vi.advanceTimersByTimeAsync(350);
    expect(r.at).toEqual([100, 200, 400, 800, 1000, 1100, 1300]);
  });

  it('an idle loop never sleeps past the next item it knows falls due', async () => {
    // the app's clock is the fake Date: the next item is due 250 ms after the start
    const due = Date.now() + 250;
    const r = recorded(() => (Date.now() < due ? { done: 0, nextAt: due } : { done: 1 }), { maxIntervalMs: 5000 });
    loops.push(r.loop);
    await vi.advanceTimersByTimeAsync(300);
    // 100 → waits 100 → 200 → would wait 200, but the item is due at 250
    expect(r.at).toEqual([100, 200, 250]);
  });

  it('failing ticks are retried after a wait that doubles, up to 30 s; a good tick brings back the interval', async () => {
    const r = recorded(
      (n) => {
        if (n <= 3) throw new Error('boom');
        return { done: 0 };
      },
      { maxIntervalMs: 800 },
    );
    loops.push(r.loop);
    await vi.advanceTimersByTimeAsync(2000);
    // failed at 100, 200, 400 (waits 100, 200, 400); good at 800, then the idle back-off from the interval
    expect(r.gaps().slice(0, 5)).toEqual([100, 200, 400, 100, 200]);

    const always = recorded(() => {
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    });
    loops.push(always.loop);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(always.gaps().slice(0, 10)).toEqual([100, 200, 400, 800, 1600, 3200, 6400, 12800, 25600, 30000]);
  });

  it('while the database cannot be reached: said once, not at every tick; a nudge keeps the back-off', async () => {
    const lines: { level: number; msg: string }[] = [];
    const capture = pino({ level: 'info' }, { write: (l: string) => void lines.push(JSON.parse(l)) });
    let down = true;
    const at: number[] = [];
    const t0 = performance.now();
    const loop = startLoop(
      'loop-db',
      100,
      capture,
      async () => {
        at.push(Math.round(performance.now() - t0));
        if (down) throw new Error('Connection terminated unexpectedly');
        return { done: 0 };
      },
      { firstDelayMs: 100 },
    );
    loops.push(loop);
    await vi.advanceTimersByTimeAsync(1600); // fails at 100, 200, 400, 800, 1600
    loop.nudge();
    await vi.advanceTimersByTimeAsync(100);
    expect(at).toEqual([100, 200, 400, 800, 1600]);
    down = false;
    await vi.advanceTimersByTimeAsync(1600); // 3200: good again
    expect(at.slice(0, 6)).toEqual([100, 200, 400, 800, 1600, 3200]);
    expect(lines.map((l) => l.msg)).toEqual([
      'worker paused: the database cannot be reached; backing off',
      'worker ticks again after failing',
    ]);
  });

  it('a tick waits while a request is in flight and runs once it has ended and a quiet gap passed', async () => {
    const traffic = new Traffic();
    const gate = () => traffic.quiet({ quietMs: 20, maxWaitMs: 1000 });
    const r = recorded(() => ({ done: 0 }), { gate, maxIntervalMs: 100 });
    loops.push(r.loop);
    const end = traffic.begin();
    await vi.advanceTimersByTimeAsync(400);
    expect(r.at).toEqual([]); // due at 100, the request is still being served
    end();
    await vi.advanceTimersByTimeAsync(19);
    expect(r.at).toEqual([]); // not in the gap right after it
    await vi.advanceTimersByTimeAsync(1);
    expect(r.at).toEqual([420]);
    await vi.advanceTimersByTimeAsync(100);
    expect(r.at).toEqual([420, 520]);
  });

  it('under constant traffic a tick runs anyway after the bounded wait', async () => {
    const traffic = new Traffic();
    const gate = () => traffic.quiet({ quietMs: 20, maxWaitMs: 1000 });
    const r = recorded(() => ({ done: 0 }), { gate, maxIntervalMs: 100 });
    loops.push(r.loop);
    // requests overlap without a gap for 5 s
    let end = traffic.begin();
    for (let t = 0; t < 5000; t += 10) {
      const next = traffic.begin();
      end();
      end = next;
      await vi.advanceTimersByTimeAsync(10);
    }
    end();
    // due at 100, ran at 1100 (1000 ms wait), then every 100 + 1000
    expect(r.at).toEqual([1100, 2200, 3300, 4400]);
  });

  it('clients waiting for the pool also hold a tick back (bounded)', async () => {
    const traffic = new Traffic();
    let waiting = 1;
    const gate = () => traffic.quiet({ quietMs: 20, maxWaitMs: 1000, alsoBusy: () => waiting > 0 });
    const r = recorded(() => ({ done: 0 }), { gate, maxIntervalMs: 100 });
    loops.push(r.loop);
    await vi.advanceTimersByTimeAsync(300);
    expect(r.at).toEqual([]);
    waiting = 0;
    await vi.advanceTimersByTimeAsync(10);
    expect(r.at.length).toBe(1);
    expect(r.at[0]).toBeGreaterThanOrEqual(300);
    expect(r.at[0]).toBeLessThanOrEqual(310);
  });

  it('stop waits for the tick in progress and ends the loop', async () => {
    let release!: () => void;
    let ticks = 0;
    const loop = startLoop(
      'loop-test-stop',
      50,
      log,
      () =>
        new Promise<TickResult>((resolve) => {
          ticks++;
          release = () => resolve({ done: 0 });
        }),
      { firstDelayMs: 10, maxIntervalMs: 400 },
    );
    await vi.advanceTimersByTimeAsync(10);
    expect(ticks).toBe(1);
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(100);
    expect(stopped).toBe(false);
    release();
    await stopping;
    await vi.advanceTimersByTimeAsync(1000);
    expect(ticks).toBe(1);
  });
});

describe('request traffic hook', () => {
  it('counts requests in flight until the answer is sent, and nudges after writes only', async () => {
    const app = Fastify();
    const ctx = {};
    registerTraffic(app, ctx);
    let finish!: () => void;
    app.get('/slow', () => new Promise<string>((resolve) => (finish = () => resolve('ok'))));
    app.get('/read', async () => 'ok');
    app.post('/write', async () => 'ok');
    app.post('/refused', async (_req, reply) => reply.code(400).send({ error: { code: 'X', message: 'no' } }));
    await app.ready();
    const traffic = trafficOf(ctx);
    let nudges = 0;
    traffic.onWork(() => nudges++);
    try {
      const slow = app.inject({ method: 'GET', url: '/slow' });
      for (let i = 0; i < 50 && !finish; i++) await new Promise((r) => setTimeout(r, 5));
      expect(traffic.busy).toBe(1);
      // a tick gated on the traffic waits for the slow request
      let ticked = false;
      const gated = traffic.quiet({ quietMs: 5, maxWaitMs: 10_000 }).then((quiet) => {
        ticked = true;
        return quiet;
      });
      await new Promise((r) => setTimeout(r, 50));
      expect(ticked).toBe(false);
      finish();
      expect((await slow).statusCode).toBe(200);
      expect(await gated).toBe(true);
      await new Promise((r) => setTimeout(r, 5));
      expect(traffic.busy).toBe(0);

      await app.inject({ method: 'GET', url: '/read' });
      await app.inject({ method: 'GET', url: '/missing' });
      await new Promise((r) => setTimeout(r, 5));
      expect(nudges).toBe(0);
      await app.inject({ method: 'POST', url: '/write' });
      await app.inject({ method: 'POST', url: '/refused' });
      await new Promise((r) => setTimeout(r, 5));
      expect(nudges).toBe(2);
      expect(traffic.busy).toBe(0);
    } finally {
      await app.close();
    }
  });

  it('a client that goes away mid-answer ends its request too', async () => {
    const app = Fastify({ forceCloseConnections: true });
    const ctx = {};
    registerTraffic(app, ctx);
    let started = false;
    app.get('/stream', (_req, reply) => {
      started = true;
      reply.hijack();
      reply.raw.writeHead(200, { 'content-type': 'text/plain' });
      // the first bytes, and never an end
      reply.raw.write('first');
    });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const traffic = trafficOf(ctx);
    try {
      const ac = new AbortController();
      const res = await fetch(`${address}/stream`, { signal: ac.signal });
      const reader = res.body!.getReader();
      await reader.read();
      expect(started).toBe(true);
      expect(traffic.busy).toBe(1);
      ac.abort();
      for (let i = 0; i < 100 && traffic.busy > 0; i++) await new Promise((r) => setTimeout(r, 10));
      expect(traffic.busy).toBe(0);
    } finally {
      await app.close();
    }
  });
});
