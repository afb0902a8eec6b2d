/** Picks a storage adapter once, from configuration: S3-compatible when a bucket is set, else local disk. */
import type { StorageChoice } from '../config.ts';
import { createLocalStorage } from './local.ts';
import type { StoragePort } from './port.ts';
import { createS3Storage } from './s3.ts';

/** Public uploads are served by the app under this path unless the adapter has its own public URL. */
export const MEDIA_PATH = '/uploads';

export function pickStorage(storage: StorageChoice): StoragePort {
  if (storage.kind === 's3') {
    const { kind: _kind, ...options } = storage;
    return createS3Storage(options);
  }
  return createLocalStorage({ dir: storage.dir });
}

export type { StoragePort } from './port.ts';
