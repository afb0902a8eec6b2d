/** Protected files' settings: the folder of files shipped in git, and the hosts outside download links may name. */
import path from 'node:path';
import { z } from 'zod';
import { parseDownloadHosts } from '#shared/content/downloads.ts';
import { defineSettings } from '../platform/config/settings.ts';

export const fileSettings = defineSettings(
  {
    /**
     * Hosts that outside download links (an https `downloadUrl` or lesson file) may point at,
     * comma-separated host names; none by default, so every download is a protected file.
     */
    DOWNLOAD_HOSTS: z
      .string()
      .default('')
      .refine(
        (v) => parseDownloadHosts(v).invalid.length === 0,
        'must be comma-separated host names, e.g. files.example.com,cdn.example.org',
      ),
  },
  (env, { contentDir }) => ({
    /** Protected downloads (keys of downloadUrl) live here. */
    filesDir: path.join(contentDir, 'files'),
    /** Hosts outside download links may point at (DOWNLOAD_HOSTS, lower-case); empty: none. */
    downloadHosts: parseDownloadHosts(env.DOWNLOAD_HOSTS).hosts,
  }),
);

export type FileSettings = ReturnType<typeof fileSettings.read>;
