import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { AppContext } from './context';
import { rotateDataKey, type RotationReport } from './requisite-keys';

/**
 * The serving process's control socket, on the embedded database only. There the server holds the data folder's lock
 * and its database serves that one process, so a maintenance command that needs the database while the server runs
 * (`npm run rotate-data-key`) asks the server to do the work instead of opening the database itself.
 *
 * Protocol: the client writes one JSON request line; the server answers with JSON lines, `{"log": "…"}` for progress,
 * then one `{"ok": true, "result": …}` or `{"error": "…"}`, and closes. The socket is in a folder of mode 0700 (only
 * this machine's user reaches it), named by the file SERVER_CONTROL_FILE in the data folder while the server runs.
 */
export const SERVER_CONTROL_FILE = 'server-control';

type Request = { op: 'rotate-data-key'; batch: number };
/** The longest request line taken, in characters. */
const MAX_REQUEST = 4096;

function parseRequest(line: string): Request | string {
  let req: unknown;
  try {
    req = JSON.parse(line);
  } catch {
    return 'the request is not JSON';
  }
  const r = req as { op?: unknown; batch?: unknown };
  if (r.op !== 'rotate-data-key') return 'unknown op: expected {"op":"rotate-data-key","batch":N}';
  if (!Number.isInteger(r.batch) || (r.batch as number) < 1 || (r.batch as number) > 10_000) {
    return 'batch must be a whole number from 1 to 10000';
  }
  return { op: r.op, batch: r.batch as number };
}

/** Listens for control requests; close() stops listening and removes the socket and the file naming it. */
export async function startServerControl(ctx: AppContext, dataDir: string): Promise<{ close(): Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paydesk-ctl-'));
  const socketPath = path.join(dir, 'server.sock');
  const nameFile = path.join(dataDir, SERVER_CONTROL_FILE);
  // one rotation at a time: a request while one runs (the command run again after Ctrl-C) follows that one
  let running: { done: Promise<RotationReport>; listeners: Set<(line: string) => void> } | null = null;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let line = '';
    socket.setEncoding('utf8');
    socket.on('error', () => undefined);
    const send = (msg: object) => socket.writable && socket.write(`${JSON.stringify(msg)}\n`);
    socket.on('data', (chunk: string) => {
      if (line.includes('\n')) return;
      line += chunk;
      if (line.length > MAX_REQUEST && !line.includes('\n')) {
        send({ error: 'the request is too long' });
        socket.destroy();
        return;
      }
      if (!line.includes('\n')) return;
      const req = parseRequest(line.slice(0, line.indexOf('\n')));
      if (typeof req === 'string') {
        send({ error: req });
        socket.end();
        return;
      }
      const log = (l: string) => void send({ log: l });
      if (running) send({ log: 'a rotation is already running: following it' });
      else {
        const listeners = new Set<(line: string) => void>();
        const job = {
          listeners,
          done: rotateDataKey(ctx, { batch: req.batch, log: (l) => listeners.forEach((f) => f(l)) }),
        };
        running = job;
        void job.done.catch(() => undefined).finally(() => (running === job ? (running = null) : null));
      }
      const job = running!;
      job.listeners.add(log);
      job.done
        .then(
          (result) => send({ ok: true, result }),
          (err: unknown) => send({ error: (err as Error).message }),
        )
        .finally(() => {
          job.listeners.delete(log);
          socket.end();
        });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  fs.writeFileSync(nameFile, socketPath, { mode: 0o600 });
  return {
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
      // a rotation stopped here resumes when the command is run again (lib/requisite-keys.ts)
      await running?.done.catch(() => undefined);
      fs.rmSync(nameFile, { force: true });
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The running server's control socket, or null when no server serves this data folder. */
export function serverControlPath(dataDir: string): string | null {
  try {
    return fs.readFileSync(path.join(dataDir, SERVER_CONTROL_FILE), 'utf8');
  } catch {
    return null;
  }
}

/** Sends one request to the running server; progress lines go to onLog; resolves with the result, or throws. */
export function askServer(socketPath: string, request: Request, onLog: (line: string) => void): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(socketPath);
    let buffer = '';
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      fn();
    };
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`${JSON.stringify(request)}\n`));
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const msg = JSON.parse(buffer.slice(0, nl)) as { log?: string; ok?: boolean; result?: unknown; error?: string };
        buffer = buffer.slice(nl + 1);
        if (msg.log !== undefined) onLog(msg.log);
        else if (msg.ok) settle(() => resolve(msg.result));
        else settle(() => reject(new Error(msg.error ?? 'the server gave no answer')));
      }
    });
    socket.on('error', (err) => settle(() => reject(err)));
    socket.on('close', () => settle(() => reject(new Error('the server closed the connection without an answer'))));
  });
}
