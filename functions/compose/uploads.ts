/**
 * The composition's storage part: the storage areas every file written at run time goes through,
 * and the upload services on them (POST /api/upload, and uploads a browser sends straight to the
 * bucket).
 */
import { ATTACHMENT_MAX_BYTES } from '#shared/support/targets.ts';
import type { Config } from '../config.ts';
import type { Database } from '../platform/db/client.ts';
import { MEDIA_PATH, pickStorage, type StoragePort } from '../platform/storage/index.ts';
import { createDirectUploads } from '../uploads/direct.ts';
import { createUploadService } from '../uploads/service.ts';
import { createUploadStore } from '../uploads/store.ts';

/** The key prefix of member files uploaded at run time (in the protected storage area, never in the content folder). */
export const PROTECTED_UPLOADS = 'uploads/';

/** The three storage areas, each behind the storage port. */
export interface StorageAreas {
  /** Public media, served at MEDIA_PATH. */
  media: StoragePort;
  /** Member files, reached only through signed file links. */
  protectedArea: StoragePort;
  /** Support requests' attachments. */
  supportArea: StoragePort;
}

/** Opens the storage areas, one after the other. */
export async function openStorageAreas(config: Config): Promise<StorageAreas> {
  // Every file written at run time goes through the storage port: the bucket, or DATA_DIR on one machine.
  const media = await pickStorage(config.uploads.storage);
  const protectedArea = await pickStorage(config.uploads.protectedStorage);
  // Support requests' attachments: an area of their own, which no media URL or signed file link reaches.
  const supportArea = await pickStorage(config.uploads.supportStorage);
  return { media, protectedArea, supportArea };
}

/** What the upload services are built on. */
export interface UploadDeps {
  db: Database;
  config: Config;
  areas: StorageAreas;
}

/** The upload services over the storage areas. */
export function buildUploads({ db, config, areas }: UploadDeps) {
  const { media, protectedArea, supportArea } = areas;
  const uploads = createUploadService({
    media,
    protectedArea,
    protectedPrefix: PROTECTED_UPLOADS,
    mediaPath: MEDIA_PATH,
    maxBytes: config.uploads.maxBytes,
    minBytesPerSecond: config.uploads.minBytesPerSecond,
  });
  const directUploads = createDirectUploads({
    store: createUploadStore(db.db),
    areas: { public: media, protected: protectedArea, support: supportArea },
    urlOf: uploads.urlOf,
    maxBytes: { public: config.uploads.maxBytes, protected: config.uploads.maxBytes, support: ATTACHMENT_MAX_BYTES },
  });
  return {
    /** POST /api/upload: public media through the configured storage adapter, member files into the protected area. */
    uploads,
    /** Uploads a browser sends straight to the bucket (registered, then checked when completed). */
    directUploads,
  };
}
