/**
 * Picks a storage adapter once, from configuration: S3-compatible when a bucket is set, else local
 * disk. The S3 SDK is loaded only when it is the one in use (a tenth of a second at every start).
 */
import { createLocalStorage } from './local.ts';
import type { StoragePort } from './port.ts';
import type { S3StorageOptions } from './s3.ts';

/** Where one storage area lives: a folder on local disk, or a bucket. */
export type StorageChoice = { kind: 'local'; dir: string } | ({ kind: 's3' } & S3StorageOptions);

/** Public uploads are served by the app under this path unless the adapter has its own public URL. */
export const MEDIA_PATH = '/uploads';

export async function pickStorage(storage: StorageChoice): Promise<StoragePort> {
  if (storage.kind === 's3') {
    const { kind: _kind, ...options } = storage;
    const { createS3Storage } = await import('./s3.ts');
    return createS3Storage(options);
  }
  return createLocalStorage({ dir: storage.dir });
}

export type { StoragePort } from './port.ts';
