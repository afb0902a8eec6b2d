/**
 * Uploads (POST /api/upload): one file from a multipart body, streamed into storage without being
 * held in memory. The type comes from the file's first bytes (file-type), never from its name or
 * part header; only images, video and PDF pass (the spec's upload control). The stored name is a
 * random id plus the sniffed type's extension: the client's file name is never used. Too large,
 * empty, several files, a wrong type or a cut connection leave nothing in storage.
 */
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { AppError } from '../platform/errors.ts';
import type { ByteRange, StoragePort } from '../platform/storage/port.ts';
import { storeSniffed } from '../platform/storage/sniffed.ts';

export { SNIFF_BYTES } from '../platform/storage/sniffed.ts';

export type UploadArea = 'public' | 'protected';

/** The spec's upload control: image/*, video/*, application/pdf. */
export const isAllowedUpload = (mime: string) => mime.startsWith('image/') || mime.startsWith('video/') || mime === 'application/pdf';

export interface UploadServiceDeps {
  /** Public media (the configured adapter). */
  media: StoragePort;
  /** The protected area: member files for gated items, reached only through signed links. */
  protectedArea: StoragePort;
  /** Folder prefix of protected keys as the file service sees them (e.g. `uploads/`). */
  protectedPrefix: string;
  /** URL path the app serves public media under, when the adapter has no public URL of its own. */
  mediaPath: string;
  maxBytes: number;
  /** Slowest pace (bytes a second) the route lets a staff member's upload body arrive at. */
  minBytesPerSecond?: number;
}

export interface UploadResult {
  /** Public media: an absolute URL or site path; protected: the key to put in a gated item. */
  url: string;
  type: string;
  size: number;
}

const invalid = (message: string, field = 'file') => new AppError('validation_failed', message, { fields: { [field]: [message] } });

export function createUploadService({
  media,
  protectedArea,
  protectedPrefix,
  mediaPath,
  maxBytes,
  minBytesPerSecond = 16 * 1024,
}: UploadServiceDeps) {
  const tooLarge = () => new AppError('payload_too_large', `The file is larger than ${maxBytes} bytes.`);
  /** The answer for a stored key: a member file's key for gated items, or where browsers fetch public media. */
  const urlOf = (area: UploadArea, key: string) =>
    area === 'protected' ? protectedPrefix + key : (media.publicUrl(key) ?? `${mediaPath}/${key}`);

  const refusal = 'Only images, videos and PDF files can be uploaded.';
  /** Sniffs the type from the bytes and streams the file to `storage` (platform/storage/sniffed.ts). */
  const save = (file: Readable & { truncated?: boolean }, storage: StoragePort) =>
    storeSniffed(file, storage, { allowed: isAllowedUpload, refusal, field: 'file', tooLarge });

  return {
    maxBytes,
    minBytesPerSecond,

    /**
     * Stores the one `file` field of a multipart body. `contentType` is the request's header;
     * `contentLength`, when sent, refuses an oversized body before reading it.
     */
    async receive(source: Readable, contentType: string, area: UploadArea, contentLength?: number): Promise<UploadResult> {
      // Room for the multipart framing around the file.
      if (contentLength !== undefined && contentLength > maxBytes + 64 * 1024) {
        source.resume();
        throw tooLarge();
      }
      if (!/^multipart\/form-data\s*;/i.test(contentType))
        throw new AppError('unsupported_media_type', 'Send the file as multipart/form-data in a field named "file".');
      let parser: busboy.Busboy;
      try {
        parser = busboy({
          headers: { 'content-type': contentType },
          limits: { files: 1, fileSize: maxBytes, fields: 10, fieldSize: 1024, parts: 20, headerPairs: 20 },
        });
      } catch {
        throw new AppError('unsupported_media_type', 'Send the file as multipart/form-data with a boundary.');
      }
      const storage = area === 'protected' ? protectedArea : media;
      let problem: unknown;
      const fail = (err: unknown) => void (problem ??= err);
      let files = 0;
      let saving: Promise<void> | undefined;
      let stored: Awaited<ReturnType<typeof save>> | undefined;
      parser.on('file', (name, file) => {
        files += 1;
        if (name !== 'file' || saving) {
          if (name !== 'file') fail(invalid(`Unexpected file field "${name}": send the file as "file".`, name));
          file.resume();
          return;
        }
        saving = save(file, storage).then((saved) => void (stored = saved), fail);
      });
      parser.on('filesLimit', () => fail(invalid('Send one file per request.')));
      parser.on('partsLimit', () => fail(invalid('The form has too many parts.')));
      parser.on('fieldsLimit', () => fail(invalid('The form has too many fields.')));
      let cut: AppError | undefined;
      try {
        await pipeline(source, parser);
      } catch (err) {
        // A cut connection or a malformed body: busboy has destroyed the file stream, so the write fails and cleans up.
        cut = err instanceof AppError ? err : new AppError('bad_request', 'The upload was cut off or is not valid multipart/form-data.');
      }
      await saving;
      // The reason the client can act on comes first: its own error, then a cut or malformed body.
      if (cut && !(problem instanceof AppError)) problem = cut;
      if (files === 0) fail(invalid('Choose a file to upload in the "file" field.'));
      if (problem !== undefined || !stored) {
        if (stored) await storage.delete(stored.key).catch(() => undefined);
        throw problem ?? invalid('Choose a file to upload in the "file" field.');
      }
      return { url: urlOf(area, stored.key), type: stored.type, size: stored.size };
    },

    urlOf,

    /** A public media file (or one range of it) for GET {mediaPath}/:key. */
    open: (key: string, range?: ByteRange) => media.get(key, range),
    /** A public media file's size and type. */
    stat: (key: string) => media.stat(key),
  };
}

export type UploadService = ReturnType<typeof createUploadService>;
