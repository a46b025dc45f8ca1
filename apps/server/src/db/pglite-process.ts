/**
 * The embedded database: PGlite in its own process, served over a Unix socket by pglite-socket,
 * so the app always talks node-postgres and a slow query never blocks the API's event loop.
 * Started by createDb(); exits when its parent goes away.
 */
import net from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { dumpDataDirTo } from './pglite-dump';

const dataDir = process.env.PGLITE_DATA_DIR;
const socketPath = process.env.PGLITE_SOCKET_PATH;
const controlPath = process.env.PGLITE_CONTROL_PATH;
if (!dataDir || !socketPath) throw new Error('PGLITE_DATA_DIR and PGLITE_SOCKET_PATH are required');

const db = await PGlite.create(dataDir);
const server = new PGLiteSocketServer({ db, path: socketPath, maxConnections: 64 });
await server.start();

/*
 * The control socket: `npm run backup` asks the running server for a backup here (one JSON line, one JSON line back).
 * The dump is PGlite's own (dumpDataDir), taken while no query runs (PGlite holds its query lock for it): the data
 * folder as a crash would leave it, write-ahead log included, so that a restore recovers every committed transaction.
 * Only this machine's user reaches the socket: it is in a folder of mode 0700.
 */
if (controlPath) {
  const control = net.createServer((socket) => {
    let line = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      line += chunk;
      if (!line.includes('\n')) return;
      void answer(line.slice(0, line.indexOf('\n'))).then((reply) => socket.end(`${JSON.stringify(reply)}\n`));
    });
    socket.on('error', () => undefined);
  });
  control.listen(controlPath);
}

async function answer(request: string): Promise<Record<string, unknown>> {
  try {
    const req = JSON.parse(request) as { op?: unknown; file?: unknown };
    if (req.op !== 'backup' || typeof req.file !== 'string') return { error: 'expected {"op":"backup","file":…}' };
    return { ok: true, ...(await dumpDataDirTo(db, req.file)) };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  try {
    await server.stop();
    await db.close();
  } finally {
    process.exit(0);
  }
}
process.on('disconnect', stop);
process.on('SIGTERM', stop);
process.on('SIGINT', () => {
  /* the parent decides when to stop */
});
process.on('message', (m) => {
  if (m === 'stop') void stop();
});
process.send?.('ready');
