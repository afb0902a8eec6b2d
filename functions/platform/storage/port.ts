/**
 * The storage port: where uploaded files live. Adapters write a whole object or nothing (a reader never
 * sees a partly written file), keyed by names the server makes. One adapter is picked at start-up
 * (index.ts); services get the port, never the configuration.
 */
import type { Readable } from 'node:stream';

export interface PutOptions {
  /** The object's name: made by the server, checked with `isStorageKey`. */
  key: string;
  contentType: string;
  /** The byte count when known in advance (lets an adapter skip buffering). */
  size?: number;
}

/** Bytes `start` to `end` of an object, both included (an HTTP byte range). */
export interface ByteRange {
  start: number;
  end: number;
}

export interface ObjectInfo {
  /** The whole object's size, whatever range was read. */
  size: number;
  contentType: string;
}

export interface StoredObject extends ObjectInfo {
  body: Readable;
}

/** What a browser needs to send a file straight to the store: a PUT bound to one key, type and length. */
export interface DirectUpload {
  url: string;
  /** Headers the PUT must carry as they are (the signature covers them). */
  headers: Record<string, string>;
  /** When the URL stops accepting a PUT. */
  expiresAt: Date;
}

export interface StoragePort {
  /** Writes `body` under `key` atomically; rejects (leaving nothing behind) when the stream errors. Returns the bytes written. */
  put(body: Readable, options: PutOptions): Promise<{ size: number }>;
  /** The object, or only `range` of it (clamped to its end), or undefined when there is none. */
  get(key: string, range?: ByteRange): Promise<StoredObject | undefined>;
  /** Size and type without the bytes, or undefined when there is none. */
  stat(key: string): Promise<ObjectInfo | undefined>;
  /** Removes the object; no error when it is already gone. */
  delete(key: string): Promise<void>;
  /** Every name held, partial writes included (tests check that nothing is left behind). */
  list(): Promise<string[]>;
  /** Where browsers fetch `key`: the adapter's public base, or undefined to serve it through the app. */
  publicUrl(key: string): string | undefined;
  /**
   * A URL a browser PUTs `key` to without passing through the app (presigned), bound to the type and
   * exact length; absent where the store cannot take one (local disk, or S3 with direct uploads off).
   */
  presignPut?(key: string, options: { contentType: string; size: number; expiresInSeconds: number }): Promise<DirectUpload>;
}

/** A flat name: letters, digits, dot, dash and underscore, starting with a letter or digit (no path separators). */
export const isStorageKey = (key: string) => /^[A-Za-z0-9][\w.-]{0,199}$/.test(key) && !key.includes('..');

export function assertStorageKey(key: string): void {
  if (!isStorageKey(key)) throw new Error(`Not a storage key: ${JSON.stringify(key)}`);
}
