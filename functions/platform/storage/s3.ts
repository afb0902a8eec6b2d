/**
 * The S3-compatible adapter (AWS S3, Cloudflare R2, Supabase Storage's S3 endpoint, MinIO) on the
 * official SDK. A write is one Upload: a single PutObject for small files, a multipart upload for
 * large ones, which S3 shows only once completed and aborts when the stream fails; either way no
 * partial object is ever visible under the key.
 */
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { assertStorageKey, isStorageKey, type ByteRange, type PutOptions, type StoragePort } from './port.ts';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  endpoint?: string;
  forcePathStyle: boolean;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Public base URL of the bucket (a CDN or the provider's public URL); without it files are served through the app. */
  publicUrl?: string;
  /** Key prefix inside the bucket, e.g. `media/`. */
  prefix?: string;
  /** Whether browsers may PUT files straight to the bucket through presigned URLs (the bucket's CORS must allow the site). */
  directUploads?: boolean;
}

/** The whole object's size from a ranged answer's `Content-Range: bytes 0-99/1234`. */
const totalOf = (contentRange: string | undefined) => {
  const total = contentRange && /\/(\d+)$/.exec(contentRange)?.[1];
  return total ? Number(total) : undefined;
};

const missing = (err: unknown) => err instanceof NoSuchKey || ['NotFound', 'NoSuchKey'].includes((err as { name?: string }).name ?? '');

/** Multipart part size: the least S3 accepts, so at most one part is held in memory per upload. */
const PART_SIZE = 5 * 1024 * 1024;

/** The S3 client for the options' region, endpoint and keys. */
function clientFor(options: S3StorageOptions): S3Client {
  const clientConfig: S3ClientConfig = {
    region: options.region,
    forcePathStyle: options.forcePathStyle,
    // Checksums only where S3 requires them: many S3-compatible servers reject the SDK's default trailers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
  if (options.endpoint) clientConfig.endpoint = options.endpoint;
  if (options.accessKeyId && options.secretAccessKey)
    clientConfig.credentials = { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey };
  return new S3Client(clientConfig);
}

/** Where objects live: the client, the bucket and the keys' prefix. */
interface BucketTarget {
  client: S3Client;
  bucket: string;
  prefix: string;
}

/** An object's size and type, or undefined when there is none (or the key is not one of ours). */
async function statObject({ client, bucket, prefix }: BucketTarget, key: string) {
  if (!isStorageKey(key)) return undefined;
  try {
    const out = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: prefix + key }));
    return { size: out.ContentLength ?? 0, contentType: out.ContentType ?? 'application/octet-stream' };
  } catch (err) {
    if (missing(err)) return undefined;
    throw err;
  }
}

type PresignOptions = { contentType: string; size: number; expiresInSeconds: number };

/** A browser's direct upload: a signed PUT of exactly this type and length. */
async function presignPut(client: S3Client, command: PutObjectCommand, { contentType, expiresInSeconds }: PresignOptions) {
  // Type and length are signed: the bucket refuses a PUT with any other (S3 checks the signed headers).
  const url = await getSignedUrl(client, command, {
    expiresIn: expiresInSeconds,
    signableHeaders: new Set(['content-type', 'content-length']),
  });
  return { url, headers: { 'content-type': contentType }, expiresAt: new Date(Date.now() + expiresInSeconds * 1000) };
}

export function createS3Storage(options: S3StorageOptions): StoragePort {
  const { bucket, prefix = '' } = options;
  const client = clientFor(options);
  const objectKey = (key: string) => {
    assertStorageKey(key);
    return prefix + key;
  };
  const base = options.publicUrl?.replace(/\/$/, '');
  const stat = (key: string) => statObject({ client, bucket, prefix }, key);
  return {
    async put(body: Readable, { key, contentType }: PutOptions) {
      let size = 0;
      const counted = Readable.from(
        (async function* () {
          for await (const chunk of body as AsyncIterable<Buffer>) {
            size += chunk.length;
            yield chunk;
          }
        })(),
      );
      const upload = new Upload({
        client,
        params: { Bucket: bucket, Key: objectKey(key), Body: counted, ContentType: contentType },
        partSize: PART_SIZE,
        queueSize: 1,
        leavePartsOnError: false,
      });
      await upload.done();
      return { size };
    },

    async get(key: string, range?: ByteRange) {
      if (!isStorageKey(key)) return undefined;
      try {
        const out = await client.send(
          new GetObjectCommand({ Bucket: bucket, Key: prefix + key, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
        );
        if (!out.Body) return undefined;
        return {
          body: out.Body as Readable,
          size: (range && totalOf(out.ContentRange)) ?? out.ContentLength ?? 0,
          contentType: out.ContentType ?? 'application/octet-stream',
        };
      } catch (err) {
        if (missing(err)) return undefined;
        // A range past the end (an empty object, say) reads nothing, as on local disk.
        if (range && (err as { name?: string }).name === 'InvalidRange') {
          const info = await stat(key);
          return info && { ...info, body: Readable.from([]) };
        }
        throw err;
      }
    },

    stat,

    async delete(key: string) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
    },

    async list() {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const out = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ...(token ? { ContinuationToken: token } : {}) }),
        );
        for (const item of out.Contents ?? []) if (item.Key) keys.push(item.Key.slice(prefix.length));
        token = out.IsTruncated ? out.NextContinuationToken : undefined;
      } while (token);
      return keys.sort();
    },

    publicUrl: (key: string) => (base === undefined ? undefined : `${base}/${prefix}${key}`),

    ...(options.directUploads
      ? {
          presignPut: async (key: string, put: PresignOptions) =>
            presignPut(
              client,
              new PutObjectCommand({ Bucket: bucket, Key: objectKey(key), ContentType: put.contentType, ContentLength: put.size }),
              put,
            ),
        }
      : {}),
  };
}
