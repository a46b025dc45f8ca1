/**
 * The embedded database: PGlite in its own process, served over a Unix socket by pglite-socket,
 * so the app always talks node-postgres and a slow query never blocks the API's event loop.
 * Started by createDb(); exits when its parent goes away.
 */
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

const dataDir = process.env.PGLITE_DATA_DIR;
const socketPath = process.env.PGLITE_SOCKET_PATH;
if (!dataDir || !socketPath) throw new Error('PGLITE_DATA_DIR and PGLITE_SOCKET_PATH are required');

const db = await PGlite.create(dataDir);
const server = new PGLiteSocketServer({ db, path: socketPath, maxConnections: 64 });
await server.start();

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
