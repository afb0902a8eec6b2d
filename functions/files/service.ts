/**
 * Protected files: everything under content/files/ (downloads, lesson media, member uploads), or
 * outside https URLs on the DOWNLOAD_HOSTS allow-list, reached only through short-lived signed links.
 * A link names one file key and expires; the key is checked to stay inside the files folder, and an
 * outside URL is checked against the list when the link is opened (a link signed before the list
 * changed sends no one elsewhere). Media links open inline (with byte ranges, so a video can seek);
 * download links arrive as attachments.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { lookup } from 'mrmime';
import { allowedDownloadUrl } from '../../src/lib/content/downloads.ts';
import { AppError } from '../errors.ts';
import type { Tokens } from '../lib/tokens.ts';

export interface FileServiceDeps {
  tokens: Tokens;
  filesDir: string;
  /** Member files uploaded at run time: keys under `prefix` live in `dir` (DATA_DIR), not in the content folder. */
  uploads?: { prefix: string; dir: string };
  siteUrl: string;
  /** Hosts an outside download may redirect to (DOWNLOAD_HOSTS); none when absent. */
  downloadHosts?: readonly string[];
}

export interface SignedLink {
  url: string;
  /** ISO time after which the link no longer opens. */
  expiresAt: string;
}

export type ResolvedDownload =
  { kind: 'redirect'; url: string } | { kind: 'file'; file: string; size: number; name: string; contentType: string; inline: boolean };

/** Whether a media or file reference is a key into the protected files folder (not a public path or URL). */
export const isPrivateKey = (ref: string) => !ref.startsWith('/') && !ref.startsWith('https://');

export function createFileService({ tokens, filesDir, uploads, siteUrl, downloadHosts = [] }: FileServiceDeps) {
  /** The folder a key lives in and its path there: uploads in DATA_DIR, everything else in content/files. */
  const locate = (key: string) =>
    uploads && key.startsWith(uploads.prefix)
      ? { root: path.resolve(uploads.dir), name: key.slice(uploads.prefix.length) }
      : { root: path.resolve(filesDir), name: key };
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
      const { root, name } = locate(key);
      const file = path.resolve(root, name);
      if (!file.startsWith(root + path.sep)) throw new AppError('not_found', 'This download link is not valid.');
      const info = await stat(file).catch(() => undefined);
      if (!info?.isFile()) throw new AppError('not_found', 'The file is no longer available.');
      return {
        kind: 'file',
        file,
        size: info.size,
        name: path.basename(file),
        contentType: lookup(file) ?? 'application/octet-stream',
        inline: result.claims.inline === 1,
      };
    },

    /** The bytes of a resolved file, whole or one inclusive range. */
    open(file: string, range?: { start: number; end: number }): Readable {
      return createReadStream(file, range);
    },
  };
}

export type FileService = ReturnType<typeof createFileService>;
