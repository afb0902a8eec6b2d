/**
 * Protected files, reached only through short-lived signed links: files shipped in git under
 * content/files/ (downloads, lesson media; read-only, from the code folder), member files uploaded
 * at run time (keys under `uploads/`, read through the storage port: the bucket's protected area or
 * DATA_DIR, so any instance serves what another stored), or outside https URLs on the DOWNLOAD_HOSTS
 * allow-list. A link names one file key and expires; a git key is checked to stay inside the files
 * folder, an upload key is a flat storage name, and an outside URL is checked against the list when
 * the link is opened (a link signed before the list changed sends no one elsewhere). Media links
 * open inline (with byte ranges, so a video can seek); download links arrive as attachments.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { lookup } from 'mrmime';
import { allowedDownloadUrl } from '#shared/content/downloads.ts';
import { AppError } from '../platform/errors.ts';
import type { Tokens } from '../platform/tokens.ts';
import type { ByteRange, StoragePort } from '../platform/storage/port.ts';

export interface FileServiceDeps {
  tokens: Tokens;
  filesDir: string;
  /** Member files uploaded at run time: keys under `prefix` are names in `storage` (the protected area), not in the content folder. */
  uploads?: { prefix: string; storage: Pick<StoragePort, 'get' | 'stat'> };
  siteUrl: string;
  /** Hosts an outside download may redirect to (DOWNLOAD_HOSTS); none when absent. */
  downloadHosts?: readonly string[];
}

export interface SignedLink {
  url: string;
  /** ISO time after which the link no longer opens. */
  expiresAt: string;
}

export interface ResolvedFile {
  kind: 'file';
  size: number;
  name: string;
  contentType: string;
  inline: boolean;
  /** The bytes, whole or one range; undefined when the file went away meanwhile. */
  open(range?: ByteRange): Promise<Readable | undefined>;
}

export type ResolvedDownload = { kind: 'redirect'; url: string } | ResolvedFile;

const gone = () => new AppError('not_found', 'The file is no longer available.');

/** Whether a media or file reference is a key into the protected files folder (not a public path or URL). */
export const isPrivateKey = (ref: string) => !ref.startsWith('/') && !ref.startsWith('https://');

export function createFileService({ tokens, filesDir, uploads, siteUrl, downloadHosts = [] }: FileServiceDeps) {
  const root = path.resolve(filesDir);
  /** A file shipped in git: a path inside content/files, read-only. */
  async function shipped(key: string): Promise<Omit<ResolvedFile, 'inline'>> {
    const file = path.resolve(root, key);
    if (!file.startsWith(root + path.sep)) throw new AppError('not_found', 'This download link is not valid.');
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) throw gone();
    const name = path.basename(file);
    return {
      kind: 'file',
      size: info.size,
      name,
      contentType: lookup(file) ?? 'application/octet-stream',
      open: async (range) => createReadStream(file, range),
    };
  }
  /** A member file uploaded at run time, through the storage port (any instance sees the same). */
  async function uploaded(storage: Pick<StoragePort, 'get' | 'stat'>, name: string): Promise<Omit<ResolvedFile, 'inline'>> {
    const info = await storage.stat(name);
    if (!info) throw gone();
    return {
      kind: 'file',
      size: info.size,
      name,
      contentType: info.contentType,
      open: async (range) => (await storage.get(name, range))?.body,
    };
  }
  const sign = async (key: string, ttlSeconds: number, inline: boolean): Promise<SignedLink> => {
    const claims: Record<string, string | number> = inline ? { key, inline: 1 } : { key };
    const token = await tokens.sign('download', claims, ttlSeconds);
    return { url: `${siteUrl}/api/files/download?token=${token}`, expiresAt: new Date(Date.now() + ttlSeconds * 1000).toISOString() };
  };
  return {
    /** A signed link to download `key` (as an attachment), valid for `ttlSeconds`. */
    async link(key: string, ttlSeconds: number): Promise<string> {
      return (await sign(key, ttlSeconds, false)).url;
    },

    /** A signed download link with its expiry. */
    signedDownload: (key: string, ttlSeconds: number) => sign(key, ttlSeconds, false),

    /** A signed link that shows `key` inline (lesson media); public paths and URLs come back as they are. */
    async mediaUrl(ref: string, ttlSeconds: number): Promise<string> {
      return isPrivateKey(ref) ? (await sign(ref, ttlSeconds, true)).url : ref;
    },

    /** Checks a token and finds the file it names; 404 when expired, invalid or missing. */
    async resolve(token: string): Promise<ResolvedDownload> {
      const result = await tokens.verify<{ key?: string; inline?: number }>('download', token);
      if (!result.ok) {
        if (result.reason === 'expired') throw new AppError('not_found', 'This download link has expired. Please request the file again.');
        throw new AppError('not_found', 'This download link is not valid.');
      }
      const key = result.claims.key ?? '';
      if (key.startsWith('https://')) {
        const url = allowedDownloadUrl(key, downloadHosts);
        if (!url) throw new AppError('not_found', 'This file is not available.');
        return { kind: 'redirect', url };
      }
      // Upload keys are flat storage names, so nothing under the prefix reaches another folder.
      const found =
        uploads && key.startsWith(uploads.prefix) ? await uploaded(uploads.storage, key.slice(uploads.prefix.length)) : await shipped(key);
      return { ...found, inline: result.claims.inline === 1 };
    },
  };
}

export type FileService = ReturnType<typeof createFileService>;
