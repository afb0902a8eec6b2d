/**
 * Uploads' settings (POST /api/upload): their own size limit and pace, and where the files go. Every file
 * written at run time goes to one of two areas, never into the code or content folder: the bucket when one
 * is set (public media under S3_PREFIX, member files under protected/), else DATA_DIR on local disk.
 */
import path from 'node:path';
import { z } from 'zod';
import { booleanFlag, defineSettings, httpUrl } from '../platform/config/settings.ts';
import type { StorageChoice } from '../platform/storage/index.ts';

/** The bucket folder of member files for gated items; public media never live there. */
export const PROTECTED_PREFIX = 'protected/';
/**
 * The bucket folder of support requests' attachments: inside the private folder, and a folder of its
 * own, so neither the media route nor a signed file link (both read flat names of their own area)
 * can name one.
 */
export const SUPPORT_PREFIX = `${PROTECTED_PREFIX}support/`;

interface UploadLimits {
  maxBytes: number;
  /** Slowest pace (bytes a second) an upload's body may arrive at. */
  minBytesPerSecond: number;
}

interface UploadAreas {
  /** Public media: local disk (default) or an S3-compatible bucket. */
  storage: StorageChoice;
  /** Member files for gated items, served only through signed links: DATA_DIR, or the bucket's protected/ folder (never given a public URL). */
  protectedStorage: StorageChoice;
  /** Support requests' attachments, served only through their request's route: DATA_DIR, or the bucket's protected/support/ folder. */
  supportStorage: StorageChoice;
}

export const uploadSettings = defineSettings(
  {
    /** Largest upload (POST /api/upload), separate from MAX_BODY_BYTES. */
    UPLOAD_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .max(5 * 1024 * 1024 * 1024)
      .default(25 * 1024 * 1024),
    /**
     * Slowest pace an upload to POST /api/upload may keep (bytes a second over every HTTP_REQUEST_TIMEOUT_MS),
     * in place of the fixed time other requests get: a 25 MB file over a slow link takes minutes.
     */
    UPLOAD_MIN_BYTES_PER_SECOND: z.coerce
      .number()
      .int()
      .min(512)
      .max(10_000_000)
      .default(16 * 1024),
    /** Uploads go to this S3-compatible bucket when set (member files under protected/), else to DATA_DIR. */
    S3_BUCKET: z.string().min(1).optional(),
    S3_REGION: z.string().min(1).default('us-east-1'),
    S3_ENDPOINT: httpUrl().optional(),
    S3_FORCE_PATH_STYLE: booleanFlag.optional(),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    S3_PUBLIC_URL: httpUrl().optional(),
    S3_PREFIX: z
      .string()
      .regex(/^[\w.-]+\/$/, 'must be a folder name ending in /')
      .refine((v) => v !== PROTECTED_PREFIX, `must not be ${PROTECTED_PREFIX}, where member files for gated items live`)
      .optional(),
    /** Browsers send uploads straight to the bucket through presigned URLs (the bucket's CORS must allow SITE_URL's origin). */
    S3_DIRECT_UPLOADS: booleanFlag.default(true),
  },
  (env, { dataDir }): UploadLimits & UploadAreas => {
    const limits = { maxBytes: env.UPLOAD_MAX_BYTES, minBytesPerSecond: env.UPLOAD_MIN_BYTES_PER_SECOND };
    if (!env.S3_BUCKET) {
      return {
        ...limits,
        storage: { kind: 'local', dir: path.join(dataDir, 'uploads') },
        protectedStorage: { kind: 'local', dir: path.join(dataDir, 'protected-uploads') },
        supportStorage: { kind: 'local', dir: path.join(dataDir, 'support-attachments') },
      };
    }
    const bucket = {
      kind: 's3' as const,
      bucket: env.S3_BUCKET,
      region: env.S3_REGION,
      // Path-style addressing is what most S3-compatible servers (R2, Supabase, MinIO) expect.
      forcePathStyle: env.S3_FORCE_PATH_STYLE ?? Boolean(env.S3_ENDPOINT),
      ...(env.S3_ENDPOINT ? { endpoint: env.S3_ENDPOINT } : {}),
      ...(env.S3_ACCESS_KEY_ID ? { accessKeyId: env.S3_ACCESS_KEY_ID } : {}),
      ...(env.S3_SECRET_ACCESS_KEY ? { secretAccessKey: env.S3_SECRET_ACCESS_KEY } : {}),
      ...(env.S3_DIRECT_UPLOADS ? { directUploads: true } : {}),
    };
    return {
      ...limits,
      storage: {
        ...bucket,
        ...(env.S3_PUBLIC_URL ? { publicUrl: env.S3_PUBLIC_URL } : {}),
        ...(env.S3_PREFIX ? { prefix: env.S3_PREFIX } : {}),
      },
      protectedStorage: { ...bucket, prefix: PROTECTED_PREFIX },
      supportStorage: { ...bucket, prefix: SUPPORT_PREFIX },
    };
  },
);

export type UploadSettings = ReturnType<typeof uploadSettings.read>;
