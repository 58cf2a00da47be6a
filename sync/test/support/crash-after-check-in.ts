import { openReplica } from '../../src/client/replica.ts';
import { createSyncClient } from '../../src/client/sync-client.ts';
import type { SyncServerLink } from '../../src/client/types.ts';

/**
 * A desk process that checks someone in with no network and is then killed
 * (SIGKILL: no close, no flush), for the crash test in sync-client.test.ts.
 * Usage: crash-after-check-in.ts <dataDir> <clientId> <class_reservation_id> <at>
 */
const [dataDir, clientId, reservationId, at] = process.argv.slice(2);
if (!dataDir || !clientId || !reservationId || !at) throw new Error('usage: <dataDir> <clientId> <class_reservation_id> <at>');

const offline = (): Promise<never> => Promise.reject(new TypeError('fetch failed'));
const noNetwork: SyncServerLink = {
  pull: offline,
  push: offline,
  position: offline,
  snapshot: offline,
  subscribePoke: (_input, handlers) => {
    queueMicrotask(() => handlers.onError(new TypeError('fetch failed')));
    return () => {};
  },
};

const replica = await openReplica({ dataDir });
const client = createSyncClient({ replica, link: noNetwork, clientId });
const { mutationId } = await client.mutate('checkIn', { class_reservation_id: Number(reservationId), at });
process.stdout.write(`${mutationId}\n`);
process.kill(process.pid, 'SIGKILL');
