/** Marks the embedded database as held by a running server, so the build does not open it too. */
import path from 'node:path';

export const lockFile = (config: { dataDir: string }) => path.join(config.dataDir, 'server.pid');
