/**
 * Writes a file whose type is judged from its own first bytes (file-type), never from its name or
 * the client's declared type, under a random name with the sniffed type's extension: the one way
 * the staff uploads and the support desk's attachments store what a client sends. The stream is
 * read as it arrives (never held whole); a refused type, an empty file or a stream the multipart
 * parser cut at its size limit (`truncated`) leaves nothing behind.
 */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';
import { AppError } from '../errors.ts';
import type { StoragePort } from './port.ts';

/** Bytes file-type needs to recognise every format it knows. */
export const SNIFF_BYTES = 4100;

export interface SniffedWriteOptions {
  /** Whether a sniffed media type may be stored. */
  allowed: (mime: string) => boolean;
  /** The refusal's words for a type that is not allowed (or not recognised). */
  refusal: string;
  /** The form field the file came in, named in field errors. */
  field: string;
  /** The error for a file over the size limit (the parser marks the stream `truncated`). */
  tooLarge: () => AppError;
}

/** An empty file: refused (422), or, with `empty: 'none'`, no file at all (an empty file input). */
type EmptyChoice = { empty?: 'refuse' } | { empty: 'none' };

export interface SniffedFile {
  /** The storage key: 32 random hex digits and the sniffed type's extension. */
  key: string;
  type: string;
  size: number;
}

/**
 * An ISO media file (MP4, QuickTime, HEIC, AVIF) starts with an `ftyp` box whose first four bytes are
 * its size. file-type looks only for `ftyp` at byte 4, so `<!--ftypisom-->` followed by a web page
 * passes as MP4: a valid HTML document, whose "size" reads as about 1 GB. A real first box is small
 * and inside the head read; anything else is not one.
 */
function wellFormedBoxes(head: Buffer): boolean {
  if (head.length < 8 || head.toString('latin1', 4, 8) !== 'ftyp') return true;
  const size = head.readUInt32BE(0);
  return size >= 8 && size <= head.length;
}

const invalid = (message: string, field: string) => new AppError('validation_failed', message, { fields: { [field]: [message] } });

/** Reads `file`'s head, checks its type, and streams head + rest into `storage`. The rest is always consumed (or the stream errored). */
export async function storeSniffed(
  file: Readable & { truncated?: boolean },
  storage: StoragePort,
  options: SniffedWriteOptions & { empty?: 'refuse' },
): Promise<SniffedFile>;
export async function storeSniffed(
  file: Readable & { truncated?: boolean },
  storage: StoragePort,
  options: SniffedWriteOptions & EmptyChoice,
): Promise<SniffedFile | undefined>;
export async function storeSniffed(
  file: Readable & { truncated?: boolean },
  storage: StoragePort,
  { allowed, refusal, field, tooLarge, empty = 'refuse' }: SniffedWriteOptions & EmptyChoice,
): Promise<SniffedFile | undefined> {
  const iter = file[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const drain = async () => {
    try {
      while (!(await iter.next()).done);
    } catch {
      // The stream failed (a cut connection): nothing more to read.
    }
  };
  const head: Buffer[] = [];
  let headSize = 0;
  let ended = false;
  while (headSize < SNIFF_BYTES) {
    const next = await iter.next();
    if (next.done) {
      ended = true;
      break;
    }
    head.push(next.value);
    headSize += next.value.length;
  }
  const first = Buffer.concat(head);
  if (file.truncated) throw tooLarge();
  if (first.length === 0) {
    if (empty === 'none') return undefined;
    throw invalid('The file is empty.', field);
  }
  const type = await fileTypeFromBuffer(first);
  if (!type || !allowed(type.mime) || !wellFormedBoxes(first)) {
    await drain();
    if (file.truncated) throw tooLarge();
    throw new AppError('unsupported_media_type', refusal, { fields: { [field]: [refusal] } });
  }
  const key = `${randomBytes(16).toString('hex')}.${type.ext}`;
  const body = Readable.from(
    (async function* () {
      yield first;
      if (!ended) for (let next = await iter.next(); !next.done; next = await iter.next()) yield next.value;
      // busboy stops at the limit and marks the file: fail the write so nothing is kept.
      if (file.truncated) throw tooLarge();
    })(),
    { objectMode: false },
  );
  try {
    const { size } = await storage.put(body, { key, contentType: type.mime });
    return { key, type: type.mime, size };
  } catch (err) {
    await drain();
    throw err;
  }
}
