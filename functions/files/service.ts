/**
 * Protected downloads: files under content/files/ (or outside https URLs) reached only through
 * short-lived signed links. A link names one file key and expires; the key is checked to stay
 * inside the files folder.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { lookup } from 'mrmime';
import { AppError } from '../errors.ts';
import type { Tokens } from '../lib/tokens.ts';

export interface FileServiceDeps {
  tokens: Tokens;
  filesDir: string;
  siteUrl: string;
}

export type ResolvedDownload =
  { kind: 'redirect'; url: string } | { kind: 'file'; stream: Readable; size: number; name: string; contentType: string };

export function createFileService({ tokens, filesDir, siteUrl }: FileServiceDeps) {
  const root = path.resolve(filesDir);
  return {
    /** A signed link to `key` valid for `ttlSeconds`. */
    async link(key: string, ttlSeconds: number): Promise<string> {
      const token = await tokens.sign('download', { key }, ttlSeconds);
      return `${siteUrl}/api/files/download?token=${token}`;
    },

    /** Opens the file a token names; 410 when expired, 404 when invalid or missing. */
    async resolve(token: string): Promise<ResolvedDownload> {
      const result = await tokens.verify<{ key?: string }>('download', token);
      if (!result.ok) {
        if (result.reason === 'expired') throw new AppError('not_found', 'This download link has expired. Please request the file again.');
        throw new AppError('not_found', 'This download link is not valid.');
      }
      const key = result.claims.key ?? '';
      if (key.startsWith('https://')) return { kind: 'redirect', url: key };
      const file = path.resolve(root, key);
      if (!file.startsWith(root + path.sep)) throw new AppError('not_found', 'This download link is not valid.');
      const info = await stat(file).catch(() => undefined);
      if (!info?.isFile()) throw new AppError('not_found', 'The file is no longer available.');
      return {
        kind: 'file',
        stream: createReadStream(file),
        size: info.size,
        name: path.basename(file),
        contentType: lookup(file) ?? 'application/octet-stream',
      };
    },
  };
}

export type FileService = ReturnType<typeof createFileService>;
