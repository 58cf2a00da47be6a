// Makes an embedded database folder with every migration applied and nothing
// in it, for the browser suite's servers to start from (e2e/tests/desk-processes.ts):
// PGlite's initdb is most of an empty folder's start. The server still runs
// its migrations (none left) and seeds the demo studio at its own now.
//   node --import tsx scripts/migrated-pglite.ts <folder>
import { createDb, migrate } from '../db/src/index.ts';

const folder = process.argv[2];
if (!folder) throw new Error('uso: scripts/migrated-pglite.ts <carpeta>');
const handle = await createDb(undefined, { dataDir: folder });
await migrate(handle);
await handle.close();
