/**
 * Direct uploads: with a bucket, the browser sends the bytes straight to it through a presigned PUT
 * instead of through the app (no instance holds a slow 25 MB upload open). Two calls around the PUT:
 * `register` checks the declared type and size first and answers a URL bound to one new key, that
 * type and that exact length; `complete` then reads the object's first bytes back (a ranged GET),
 * sniffs its type with file-type and checks its size and stored type, deleting the object and
 * answering 4xx when anything differs from what was registered, else answering `{ url }` as
 * POST /api/upload does. Registrations live in Postgres, so any instance completes what another
 * registered; those never completed are pruned with their objects. Without direct uploads (local
 * disk, or S3_DIRECT_UPLOADS=false) `register` still checks type and size, then says to POST.
 *
 * A support request's attachment goes the same way into support's own area (`support`), which has no
 * URL: a member registers it, sends it, and `claim`s it once for the message that carries it, so a
 * file never passes through a function (whose body limit is 6 MB) on a serverless deployment.
 */
import { randomBytes } from 'node:crypto';
import { fileTypeFromBuffer, supportedExtensions } from 'file-type';
import { lookup } from 'mrmime';
import { AppError } from '../platform/errors.ts';
import type { StoragePort } from '../platform/storage/port.ts';
import type { UploadRegistration, UploadStore } from './store.ts';
import { isAllowedUpload, SNIFF_BYTES, type UploadArea } from './service.ts';

/** How long a presigned URL accepts the start of a PUT. */
const PUT_URL_SECONDS = 15 * 60;
/** How long a registration can be completed; older ones are pruned, with their objects when never completed. */
export const REGISTRATION_SECONDS = 6 * 3600;

/** The extension a key gets for each declared type file-type can recognise (`image/jpeg` → `jpg`); others cannot be checked, so are refused. */
const EXTENSIONS = new Map<string, string>();
for (const ext of supportedExtensions) {
  const mime = lookup(ext);
  if (mime && isAllowedUpload(mime) && !EXTENSIONS.has(mime)) EXTENSIONS.set(mime, ext);
}

/** Where a direct upload goes: the uploads' own areas, or support's (attachments, which have no URL). */
export type DirectArea = UploadArea | 'support';

export interface DirectUploadDeps {
  store: UploadStore;
  areas: Record<DirectArea, StoragePort>;
  /** The `{ url }` answer for a stored key, as POST /api/upload gives it. */
  urlOf: (area: UploadArea, key: string) => string;
  /** The largest file each area takes. */
  maxBytes: Record<DirectArea, number>;
}

export interface Registration {
  area: DirectArea;
  contentType: string;
  size: number;
}

/** A claimed file: its key in its area, and what its bytes were checked to be. */
export interface ClaimedFile {
  key: string;
  contentType: string;
  size: number;
}

/** What the browser does next: PUT to the bucket then complete, or POST the file to /api/upload. */
export type UploadOffer =
  { direct: true; key: string; url: string; method: 'PUT'; headers: Record<string, string>; expiresAt: string } | { direct: false };

const unsupported = (field: string) =>
  new AppError('unsupported_media_type', 'Only images, videos and PDF files can be uploaded.', {
    fields: { [field]: ['Only images, videos and PDF files can be uploaded.'] },
  });

export function createDirectUploads({ store, areas, urlOf, maxBytes }: DirectUploadDeps) {
  /** Deletes what was sent and forgets the registration: the answer is final. */
  async function refuse(key: string, area: DirectArea, error: AppError): Promise<never> {
    await areas[area].delete(key).catch(() => undefined);
    await store.remove(key);
    throw error;
  }

  /** The stored object is what was registered (size, sniffed type, stored type), or it is deleted and the answer is 4xx. */
  async function check({ key, area, contentType, size }: Pick<UploadRegistration, 'key' | 'area' | 'contentType' | 'size'>): Promise<void> {
    const head = await areas[area].get(key, { start: 0, end: SNIFF_BYTES - 1 });
    if (!head) throw new AppError('conflict', 'The file has not arrived yet: send it to the upload URL first.');
    const chunks: Buffer[] = [];
    for await (const chunk of head.body) chunks.push(Buffer.from(chunk as Uint8Array));
    if (head.size !== size) {
      await refuse(
        key,
        area,
        new AppError('validation_failed', `The file sent is ${head.size} bytes, not the ${size} registered.`, {
          fields: { size: ['Does not match the file sent'] },
        }),
      );
    }
    const sniffed = await fileTypeFromBuffer(Buffer.concat(chunks));
    const sameType = sniffed && (sniffed.mime === contentType || lookup(sniffed.ext) === contentType);
    if (!sameType || head.contentType.toLowerCase() !== contentType) {
      const message = isAllowedUpload(sniffed?.mime ?? '')
        ? `The file is not the type it was registered as (${contentType}).`
        : 'Only images, videos and PDF files can be uploaded.';
      await refuse(key, area, new AppError('unsupported_media_type', message, { fields: { file: [message] } }));
    }
  }

  return {
    async register(userId: string, { area, contentType, size }: Registration): Promise<UploadOffer> {
      const type = contentType.toLowerCase();
      const ext = EXTENSIONS.get(type);
      if (!ext) throw unsupported('contentType');
      if (size > maxBytes[area]) throw new AppError('payload_too_large', `The file is larger than ${maxBytes[area]} bytes.`);
      const storage = areas[area];
      if (!storage.presignPut) return { direct: false };
      const key = `${randomBytes(16).toString('hex')}.${ext}`;
      await store.register({ key, area, contentType: type, size, userId });
      const put = await storage.presignPut(key, { contentType: type, size, expiresInSeconds: PUT_URL_SECONDS });
      return { direct: true, key, url: put.url, method: 'PUT', headers: put.headers, expiresAt: put.expiresAt.toISOString() };
    },

    /** Checks the object the browser sent for a registration of this user's and answers its `{ url }`. */
    async complete(userId: string, key: string): Promise<{ url: string }> {
      const found = await store.find(key, userId, REGISTRATION_SECONDS);
      // A support attachment has no URL: only its message's claim takes it.
      if (!found || found.area === 'support') throw new AppError('not_found', 'No such upload: register it first.');
      const area = found.area;
      if (found.completedAt) return { url: urlOf(area, key) };
      await check(found);
      await store.complete(key);
      return { url: urlOf(area, key) };
    },

    /**
     * Takes the object the browser sent for this user's registration in `area`, once: the first claim
     * takes it (a second, on any instance, is refused), so one file belongs to one message. What is
     * kept is a copy under a new key, checked after copying: the sender's PUT URL stays valid for a
     * while, and could otherwise replace the checked bytes with others of the same length.
     */
    async claim(userId: string, key: string, area: DirectArea, field = 'attachment'): Promise<ClaimedFile> {
      const found = await store.find(key, userId, REGISTRATION_SECONDS);
      const unknown = () => new AppError('validation_failed', 'No such file: send it again.', { fields: { [field]: ['No such file'] } });
      if (!found || found.area !== area || found.completedAt) throw unknown();
      const storage = areas[area];
      if (!(await storage.stat(key))) throw new AppError('conflict', 'The file has not arrived yet: send it to the upload URL first.');
      if (!(await store.claim(key))) throw unknown();
      const sent = await storage.get(key);
      if (!sent) throw unknown();
      const kept = `${randomBytes(16).toString('hex')}${key.slice(key.lastIndexOf('.'))}`;
      await storage.put(sent.body, { key: kept, contentType: found.contentType, size: sent.size });
      await storage.delete(key);
      // A refusal deletes the copy (the sent object is gone already) and answers 4xx.
      await check({ key: kept, area, contentType: found.contentType, size: found.size });
      return { key: kept, contentType: found.contentType, size: found.size };
    },

    /**
     * Forgets registrations past their time and deletes the objects sent for ones never completed, and
     * whatever is at a claimed one's key (its file was copied away; the old URL could have written again);
     * returns how many objects it deleted.
     */
    async prune(): Promise<number> {
      const old = await store.prune(REGISTRATION_SECONDS);
      const unused = old.filter(({ area, completed }) => !completed || area === 'support');
      for (const { key, area } of unused) await areas[area].delete(key).catch(() => undefined);
      return unused.length;
    },
  };
}

export type DirectUploads = ReturnType<typeof createDirectUploads>;
