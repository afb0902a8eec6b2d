/**
 * The site's pages on the services: the site handler (functions/platform/site/handler.ts) with what
 * pages read on the server (locals), the run-time SITE_URL, the page policy and, in a deploy
 * preview, what /preview shows. One place for the Node server (main.ts) and the serverless function
 * (serverless.ts), which serve pages the same way.
 */
import { accessLabel } from '#shared/access.ts';
import type { PreviewContext } from '#server/context.ts';
import { pagePolicy } from '#server/page-csp.ts';
import type { Services } from './compose.ts';
import { pageImageSources, type Config } from './config.ts';
import { createSiteHandler } from './platform/site/handler.ts';
import { createPageLocals } from './platform/site/locals.ts';
import { readChanges } from './platform/site/preview-changes.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './users/demo.ts';

/** What /preview shows: the branch, its content changes (read once) and the demo accounts to view it as. */
async function previewContext(preview: NonNullable<Config['preview']>): Promise<PreviewContext> {
  const { base, changes } = await readChanges(preview.changesFile);
  return {
    branch: preview.branch,
    commit: preview.commit,
    base,
    changes,
    accounts: DEMO_ACCOUNTS.filter((a) => a.role !== 'admin').map((a) => ({
      email: a.email,
      label: a.role === 'member' ? accessLabel(a.accessLevel) : 'Editor',
    })),
    password: DEMO_PASSWORD,
  };
}

/** The site handler for `config`'s build, its kept renders dropped by every content write (on any instance). */
export async function createSite(config: Config, services: Services) {
  const pageCsp = pagePolicy(pageImageSources(config));
  const site = await createSiteHandler({
    distDir: config.distDir,
    locals: createPageLocals(services, {
      siteUrl: config.siteUrl,
      pageCsp,
      preview: config.preview && (await previewContext(config.preview)),
    }),
    siteUrl: config.siteUrl,
    content: services.contentCache.reader,
    pageCsp,
    preview: config.preview,
  });
  services.contentCache.onClear(site.clearRendered);
  return site;
}
