import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildEnvironment, DEPLOY_RECORD, deployVariables, forNetlifyCdn, functionEnvironment, previewDatabaseProblem } from './netlify.ts';

const PRODUCTION = { CONTEXT: 'production', URL: 'https://beacon.example', DEPLOY_PRIME_URL: 'https://main--beacon.netlify.app' };
const PREVIEW = {
  CONTEXT: 'deploy-preview',
  URL: 'https://beacon.example',
  DEPLOY_PRIME_URL: 'https://deploy-preview-42--beacon.netlify.app',
  HEAD: 'new-pricing',
  BRANCH: 'main',
  COMMIT_REF: 'abc1234def',
};

describe("Netlify's variables in the app's names", () => {
  it("gives production its own address and nothing of a preview's", () => {
    expect(deployVariables(PRODUCTION)).toEqual({ SITE_URL: 'https://beacon.example', DEPLOY_CONTEXT: 'production' });
  });

  it("gives a Deploy Preview its own address, its pull request's branch and commit, and test payments", () => {
    expect(deployVariables(PREVIEW)).toEqual({
      SITE_URL: 'https://deploy-preview-42--beacon.netlify.app',
      PREVIEW_OF: 'new-pricing',
      PREVIEW_COMMIT: 'abc1234def',
      PAYMENTS: 'test',
      DEPLOY_CONTEXT: 'deploy-preview',
    });
    // An empty HEAD says nothing.
    expect(deployVariables({ ...PREVIEW, HEAD: '' }).PREVIEW_OF).toBe('main');
    expect(deployVariables({ ...PREVIEW, CONTEXT: 'branch-deploy', HEAD: undefined, BRANCH: 'staging' }).PREVIEW_OF).toBe('staging');
  });

  it('says nothing outside Netlify', () => {
    expect(deployVariables({})).toEqual({});
    expect(buildEnvironment({ SITE_URL: 'https://x.example' })).toEqual({ SITE_URL: 'https://x.example' });
  });

  it("lets production's own variables win, but never lets one set for all contexts make a preview production", () => {
    expect(buildEnvironment({ ...PRODUCTION, SITE_URL: 'https://www.beacon.example' }).SITE_URL).toBe('https://www.beacon.example');
    const preview = buildEnvironment({ ...PREVIEW, SITE_URL: 'https://www.beacon.example', PAYMENTS: 'auto' });
    expect(preview.SITE_URL).toBe('https://deploy-preview-42--beacon.netlify.app');
    expect(preview.PAYMENTS).toBe('test');
    // An empty value is no value.
    expect(buildEnvironment({ ...PREVIEW, PAYMENTS: '' }).PAYMENTS).toBe('test');
  });

  it("gives a preview Netlify DB's branch, never production's DATABASE_URL", () => {
    const env = buildEnvironment({
      ...PREVIEW,
      DATABASE_URL: 'postgres://production',
      DATABASE_DIRECT_URL: 'postgres://production-direct',
      NETLIFY_DATABASE_URL: 'postgres://preview-branch',
      NETLIFY_DATABASE_URL_UNPOOLED: 'postgres://preview-branch-direct',
    });
    expect(env.DATABASE_URL).toBe('postgres://preview-branch');
    expect(env.DATABASE_DIRECT_URL).toBe('postgres://preview-branch-direct');
    // Without an unpooled address, production's direct one is not kept beside the branch.
    expect(
      buildEnvironment({ ...PREVIEW, DATABASE_DIRECT_URL: 'postgres://production-direct', NETLIFY_DATABASE_URL: 'postgres://b' })
        .DATABASE_DIRECT_URL,
    ).toBeFalsy();
  });

  it('gives a preview PREVIEW_DATABASE_URL when Netlify DB is not there, and none without either, refusing to build it', () => {
    expect(
      buildEnvironment({ ...PREVIEW, DATABASE_URL: 'postgres://production', PREVIEW_DATABASE_URL: 'postgres://previews' }),
    ).toMatchObject({
      DATABASE_URL: 'postgres://previews',
    });
    const env = buildEnvironment({
      ...PREVIEW,
      DATABASE_URL: 'postgres://production',
      DATABASE_DIRECT_URL: 'postgres://production-direct',
    });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.DATABASE_DIRECT_URL).toBeUndefined();
    expect(previewDatabaseProblem({ ...PREVIEW, DATABASE_URL: 'postgres://production' })).toMatch(/Netlify DB.*PREVIEW_DATABASE_URL/);
    expect(previewDatabaseProblem({ ...PREVIEW, NETLIFY_DATABASE_URL: 'postgres://branch' })).toBeUndefined();
    expect(previewDatabaseProblem({ ...PRODUCTION, DATABASE_URL: 'postgres://production' })).toBeUndefined();
  });

  it("takes Netlify DB's database in production only when DATABASE_URL is not set", () => {
    const netlify = { NETLIFY_DATABASE_URL: 'postgres://netlify', NETLIFY_DATABASE_URL_UNPOOLED: 'postgres://netlify-direct' };
    expect(buildEnvironment({ ...PRODUCTION, ...netlify })).toMatchObject({
      DATABASE_URL: 'postgres://netlify',
      DATABASE_DIRECT_URL: 'postgres://netlify-direct',
    });
    expect(buildEnvironment({ ...PRODUCTION, ...netlify, DATABASE_URL: 'postgres://own' }).DATABASE_URL).toBe('postgres://own');
  });

  it("starts a function from the build's deploy record, over what the platform says at run time", () => {
    const dist = mkdtempSync(path.join(tmpdir(), 'deploy-record-'));
    mkdirSync(path.join(dist, 'server'));
    const record = {
      SITE_URL: 'https://deploy-preview-42--beacon.netlify.app',
      PREVIEW_OF: 'new-pricing',
      DEPLOY_CONTEXT: 'deploy-preview',
      extra: 1,
    };
    writeFileSync(path.join(dist, DEPLOY_RECORD), JSON.stringify(record));
    // At run time a function sees no CONTEXT: the recorded one keeps it a preview, on its own database.
    const env = functionEnvironment(
      { DATABASE_URL: 'postgres://production', NETLIFY_DATABASE_URL: 'postgres://branch', SITE_URL: 'https://www.beacon.example' },
      dist,
    );
    expect(env).toMatchObject({
      SITE_URL: record.SITE_URL,
      PREVIEW_OF: 'new-pricing',
      PAYMENTS: 'test',
      DATABASE_URL: 'postgres://branch',
    });
    expect(env).not.toHaveProperty('extra');
    expect(functionEnvironment({ DATABASE_URL: 'postgres://production' }, dist).DATABASE_URL).toBeUndefined();
    // No record (a build not made for Netlify): the environment as it is.
    expect(functionEnvironment({ SITE_URL: 'https://set.example' }, path.join(dist, 'none'))).toEqual({ SITE_URL: 'https://set.example' });
  });
});

describe("answers for Netlify's CDN", () => {
  const answer = (cacheControl: string, status = 200) =>
    new Response('body', { status, headers: { 'Cache-Control': cacheControl, ETag: '"x"' } });

  it('marks what a shared cache may keep, durable, within the same bound', async () => {
    const marked = forNetlifyCdn(answer('public, max-age=0, s-maxage=30, stale-while-revalidate=30'));
    expect(marked.headers.get('netlify-cdn-cache-control')).toBe('public, durable, s-maxage=30, stale-while-revalidate=30');
    expect(marked.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=30, stale-while-revalidate=30');
    expect(marked.headers.get('etag')).toBe('"x"');
    expect(await marked.text()).toBe('body');
  });

  it('leaves per-caller answers, answers no shared cache may keep, and errors unmarked', () => {
    for (const [policy, status] of [
      ['private, no-store', 200],
      ['no-store', 200],
      ['public, max-age=0, must-revalidate', 200],
      ['public, max-age=31536000, immutable', 200],
      ['public, max-age=0, s-maxage=30', 404],
    ] as const)
      expect(forNetlifyCdn(answer(policy, status)).headers.has('netlify-cdn-cache-control'), policy).toBe(false);
  });
});
