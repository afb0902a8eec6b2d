/**
 * The server process's own settings: where it listens and keeps its data, its database, the public
 * address, logging, proxies, body and connection limits, the CDN bound, the signing secret and a
 * deploy preview.
 */
import path from 'node:path';
import { z } from 'zod';
import { MAX_CDN_STALENESS_SECONDS } from '../http/cache-control.ts';
import { defineSettings, httpUrl } from './settings.ts';

/** The embedded database's folder, or a Postgres server (its pooled URL, and a direct one for session features). */
export type DatabaseSettings =
  { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; url: string; poolSize: number; directUrl?: string };

export const serverSettings = defineSettings(
  {
    NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('127.0.0.1'),
    DATA_DIR: z.string().min(1).default('.data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
    /**
     * A direct (session) connection to the same database, when DATABASE_URL goes through a
     * transaction-mode pooler (Supabase's or Neon's, PgBouncer): migrations' lock and LISTEN use it.
     */
    DATABASE_DIRECT_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
    CONTENT_DIR: z.string().min(1).default('content'),
    DIST_DIR: z.string().min(1).default('dist'),
    SITE_URL: httpUrl().optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    TRUST_PROXY: z
      .string()
      .regex(/^(true|false|yes|no|[0-9])$/, 'must be true, false or the number of proxies in front (0-9)')
      .default('false'),
    MAX_BODY_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .max(50 * 1024 * 1024)
      .default(1024 * 1024),
    HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
    HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
    HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(5_000),
    HTTP_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(100_000).default(1024),
    /**
     * The staleness bound of anonymous pages and public API answers in a shared cache (a CDN in front):
     * fresh for half of it (s-maxage), served stale while revalidating for the other half. 0: revalidate every time.
     */
    CDN_STALENESS_SECONDS: z.coerce.number().int().min(0).max(MAX_CDN_STALENESS_SECONDS).default(MAX_CDN_STALENESS_SECONDS),
    SECRET_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
    /**
     * Preview mode: the branch a deploy preview shows (demo accounts and content, noindex everywhere, a
     * banner naming branch and commit, /preview listing the branch's content changes).
     */
    PREVIEW_OF: z
      .string()
      .regex(/^[\w./-]{1,100}$/, 'must be a branch name (letters, digits, . _ / -)')
      .optional(),
    /** The commit a preview was built from (the CI's GITHUB_SHA); shown in its banner. */
    PREVIEW_COMMIT: z
      .string()
      .regex(/^[0-9a-f]{7,40}$/, 'must be a git commit id')
      .optional(),
    /** The branch's content changes against its base, written by `npm run preview:changes` before the build. */
    PREVIEW_CHANGES_FILE: z.string().min(1).default('.preview/changes.json'),
  },
  (env, { cwd, dataDir, contentDir }) => {
    const shownHost = env.HOST === '0.0.0.0' || env.HOST === '::' ? 'localhost' : env.HOST;
    const database: DatabaseSettings = env.DATABASE_URL
      ? {
          kind: 'postgres',
          url: env.DATABASE_URL,
          poolSize: env.DATABASE_POOL_SIZE,
          ...(env.DATABASE_DIRECT_URL ? { directUrl: env.DATABASE_DIRECT_URL } : {}),
        }
      : { kind: 'pglite', dataDir: path.join(dataDir, 'pglite') };
    const preview: { branch: string; commit?: string; changesFile: string } | undefined = env.PREVIEW_OF
      ? {
          branch: env.PREVIEW_OF,
          ...(env.PREVIEW_COMMIT ? { commit: env.PREVIEW_COMMIT } : {}),
          changesFile: path.resolve(cwd, env.PREVIEW_CHANGES_FILE),
        }
      : undefined;
    return {
      env: env.NODE_ENV,
      port: env.PORT,
      host: env.HOST,
      dataDir,
      database,
      contentDir,
      distDir: path.resolve(cwd, env.DIST_DIR),
      /** Public origin used for canonical URLs and links in emails. */
      siteUrl: (env.SITE_URL ?? `http://${shownHost}:${env.PORT}`).replace(/\/$/, ''),
      /** A deploy preview (PREVIEW_OF): what its banner and /preview page show. */
      ...(preview ? { preview } : {}),
      logLevel: env.LOG_LEVEL,
      /** Number of proxies in front whose X-Forwarded-For entries are trusted (0: use the socket). */
      trustProxy: /^\d$/.test(env.TRUST_PROXY) ? Number(env.TRUST_PROXY) : ['true', 'yes'].includes(env.TRUST_PROXY) ? 1 : 0,
      maxBodyBytes: env.MAX_BODY_BYTES,
      /** Limits that keep slow or idle clients from holding connections. */
      http: {
        /** Time allowed to send the request head. */
        headersTimeoutMs: env.HTTP_HEADERS_TIMEOUT_MS,
        /** Time allowed to send the whole request, body included. */
        requestTimeoutMs: Math.max(env.HTTP_REQUEST_TIMEOUT_MS, env.HTTP_HEADERS_TIMEOUT_MS),
        /** How long an idle keep-alive connection stays open. */
        keepAliveTimeoutMs: env.HTTP_KEEP_ALIVE_TIMEOUT_MS,
        /** Connections open at once; more are refused. */
        maxConnections: env.HTTP_MAX_CONNECTIONS,
      },
      /** How old (seconds) a shared cache's copy of an anonymous page or public API answer may be (CDN_STALENESS_SECONDS). */
      cdnStalenessSeconds: env.CDN_STALENESS_SECONDS,
      /** Signing secret for links in emails and downloads; generated and kept in the database if unset. */
      ...(env.SECRET_KEY ? { secretKey: env.SECRET_KEY } : {}),
    };
  },
);

export type ServerSettings = ReturnType<typeof serverSettings.read>;
