/**
 * Support requests' attachments: a message sent as multipart/form-data carries its text fields and at
 * most one file in `attachment`, read from the socket as it arrives (busboy) under its own size limit,
 * its type judged from its bytes (images, video and PDF, like staff uploads), and written through the
 * storage port into the support area under a server-made name (platform/storage/sniffed.ts). That area
 * is neither the media nor the protected area, so no media URL or signed file link can name an
 * attachment: it is read back only through its request's route. The file name the member gave is
 * kept for display and the download's name, cleaned of paths, control and direction characters.
 */
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { lookup } from 'mrmime';
import { AppError } from '../platform/errors.ts';
import type { StoragePort } from '../platform/storage/port.ts';
import { storeSniffed } from '../platform/storage/sniffed.ts';
import { isAllowedUpload } from '../uploads/index.ts';

/** A stored attachment, as its message row keeps it. */
export interface StoredAttachment {
  key: string;
  /** The member's file name, cleaned (display and download name only; never a storage key). */
  name: string;
  type: string;
  size: number;
}

/** A multipart message: its text fields, and the attachment when one came. */
export interface ReceivedForm {
  fields: Record<string, string>;
  attachment?: StoredAttachment;
}

/** The form's one file field. */
export const ATTACHMENT_FIELD = 'attachment';
/** Room for a message's text fields (10,000 characters of up to 4 bytes, and the others). */
const FIELD_BYTES = 48 * 1024;

const invalid = (message: string, field = ATTACHMENT_FIELD) =>
  new AppError('validation_failed', message, { fields: { [field]: [message] } });

/**
 * Characters a file name loses: controls, and the invisible ones that make a name read other than it
 * is (bidirectional formatting, which shows `exe.pdf` as `fdp.exe`; zero-width and filler
 * characters, the soft hyphen and the Hangul fillers, which let a name look like `.pdf` alone).
 */
const UNSEEN =
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb]|\u034f|\u115f|\u1160|\u17b4|\u17b5/g;
/** The longest name kept, in characters (code points, so a cut never splits one). */
const MAX_NAME = 120;

/**
 * A name that says what the file is: one whose extension already names the sniffed type keeps it
 * (`photo.jpeg` for image/jpeg); any other gets the type's extension after it (`invoice.html` holding
 * a GIF is `invoice.html.gif`), so a saved download opens in a viewer for what the bytes are, never
 * as what the sender named it. Used when storing and when serving (rows stored before it, too).
 */
export function nameForType(name: string, type: string): string {
  const ext = mimeExtension(type);
  const dot = name.lastIndexOf('.');
  const own = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  if (own && lookup(own) === type) return name;
  const base = Array.from(name)
    .slice(0, MAX_NAME - ext.length - 1)
    .join('');
  return `${base}.${ext}`;
}

/** The usual extension of an allowed media type (`image/svg+xml` is never one). */
function mimeExtension(type: string): string {
  const known: Record<string, string> = { 'image/jpeg': 'jpg', 'video/quicktime': 'mov', 'application/pdf': 'pdf' };
  return known[type] ?? (type.split('/')[1]?.replace(/[^a-z0-9]/g, '') || 'bin');
}

/**
 * A file name fit to show and to offer as a download's name: its last path segment, without control,
 * zero-width, filler or bidirectional formatting characters, at most 120 characters with the
 * extension of what the bytes are (`nameForType`); `attachment.<ext>` when nothing is left.
 */
export function cleanFileName(raw: string | undefined, type: string): string {
  const base = (raw ?? '').normalize('NFC').split(/[\\/]/).pop() ?? '';
  const clean = Array.from(base.replace(UNSEEN, '').trim()).slice(0, MAX_NAME).join('').trim();
  return nameForType(clean || 'attachment', type);
}

/** `Content-Disposition` for a download: an ASCII name for old clients and the UTF-8 one (RFC 6266, RFC 8187: `'()*` encoded too). */
export function attachmentDisposition(name: string): string {
  const ascii = name.replace(/[^\w.-]/g, '_');
  const utf8 = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${utf8}`;
}

export function createAttachments({
  storage,
  maxBytes,
  minBytesPerSecond = 16 * 1024,
}: {
  storage: StoragePort;
  maxBytes: number;
  /** The pace a message with a file may arrive at, instead of the fixed time every body has (UPLOAD_MIN_BYTES_PER_SECOND). */
  minBytesPerSecond?: number;
}) {
  const tooLarge = () => new AppError('payload_too_large', `The attachment is larger than ${Math.round(maxBytes / 1024 / 1024)} MB.`);
  const refusal = 'Attach an image, a video or a PDF file.';
  return {
    maxBytes,
    minBytesPerSecond,

    /**
     * Reads a multipart body: text fields, and the one file in `attachment` stored at once (an empty
     * file input, a part with no file name and no bytes, counts as none). Any refusal removes what was
     * stored. `contentLength`, when sent, refuses an oversized body before reading it.
     */
    async receive(source: Readable, contentType: string, contentLength?: number): Promise<ReceivedForm> {
      if (contentLength !== undefined && contentLength > maxBytes + FIELD_BYTES + 16 * 1024) {
        source.resume();
        throw tooLarge();
      }
      let parser: busboy.Busboy;
      try {
        parser = busboy({
          headers: { 'content-type': contentType },
          // Browsers send file names as UTF-8 bytes.
          defParamCharset: 'utf8',
          limits: { files: 1, fileSize: maxBytes, fields: 5, fieldSize: FIELD_BYTES, parts: 8, headerPairs: 20 },
        });
      } catch {
        throw new AppError('unsupported_media_type', 'Send the message as JSON, or as multipart/form-data with a boundary.');
      }
      const fields = new Map<string, string>();
      let problem: unknown;
      const fail = (err: unknown) => void (problem ??= err);
      let saving: Promise<void> | undefined;
      let stored: StoredAttachment | undefined;
      parser.on('field', (name, value, info) => {
        if (info.valueTruncated) fail(invalid(`The ${name} field is too long.`, name));
        else if (fields.has(name)) fail(invalid(`Send the ${name} field once.`, name));
        else fields.set(name, value);
      });
      parser.on('file', (name, file, info) => {
        if (name !== ATTACHMENT_FIELD || saving) {
          fail(invalid(name === ATTACHMENT_FIELD ? 'Attach one file per message.' : `Unexpected file field "${name}".`, name));
          file.resume();
          return;
        }
        // An empty file input arrives as a part with no file name and no bytes: no attachment.
        const empty = info.filename ? ('refuse' as const) : ('none' as const);
        saving = storeSniffed(file, storage, { allowed: isAllowedUpload, refusal, field: ATTACHMENT_FIELD, tooLarge, empty }).then(
          (saved) => void (stored = saved && { ...saved, name: cleanFileName(info.filename, saved.type) }),
          fail,
        );
      });
      parser.on('filesLimit', () => fail(invalid('Attach one file per message.')));
      parser.on('partsLimit', () => fail(invalid('The form has too many parts.', '_')));
      parser.on('fieldsLimit', () => fail(invalid('The form has too many fields.', '_')));
      let cut: AppError | undefined;
      try {
        await pipeline(source, parser);
      } catch (err) {
        // A cut connection or a malformed body: busboy has destroyed the file stream, so the write fails and cleans up.
        cut = err instanceof AppError ? err : new AppError('bad_request', 'The message was cut off or is not valid multipart/form-data.');
      }
      await saving;
      if (cut && !(problem instanceof AppError)) problem = cut;
      if (problem !== undefined) {
        if (stored) await storage.delete(stored.key).catch(() => undefined);
        throw problem;
      }
      return { fields: Object.fromEntries(fields), ...(stored ? { attachment: stored } : {}) };
    },

    /** An attachment's bytes, or undefined when the object is gone. */
    open: (key: string) => storage.get(key),

    /** An attachment's size and type, or undefined when the object is gone. */
    stat: (key: string) => storage.stat(key),

    /** Removes attachments (a refused message, a deleted account); missing ones are fine. One that fails does not stop the rest. */
    async remove(keys: string[]): Promise<void> {
      const failed: unknown[] = [];
      for (const key of keys) await storage.delete(key).catch((err: unknown) => failed.push(err));
      if (failed.length > 0) throw new AggregateError(failed, `${failed.length} of ${keys.length} attachments could not be removed`);
    },
  };
}

export type Attachments = ReturnType<typeof createAttachments>;
