/** Marks the embedded database as held by a running server, so the build does not open it too. */
import path from 'node:path';
import type { Config } from '../../config.ts';

export const lockFile = (config: Pick<Config, 'dataDir'>) => path.join(config.dataDir, 'server.pid');
