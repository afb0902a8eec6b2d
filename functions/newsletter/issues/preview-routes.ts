/**
 * The editor's preview frame (`GET /api/newsletter/previews/{token}`): the HTML of one issue's copy at
 * one level, by the signed link the preview answer gave (`issues.preview`, ten minutes). A frame
 * cannot send the editor's bearer token, so the link is the permission; it names the issue and the
 * level, nothing more. The copy is a mail: its layout is inline styles, which the dashboard's hashed
 * policy refuses (each one a CSP report when the dashboard parsed the mail itself), so it is served
 * as a document of its own under a policy of its own (`mailViewHeaders`): inline styles and images
 * from our hosts, nothing active, framed by our pages alone.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../../platform/http/context.ts';
import { mailViewHeaders } from '../../platform/http/security-headers.ts';
import type { IssueService } from './service.ts';

export interface IssuePreviewRoutesDeps {
  issues: IssueService;
  /** Where a copy's images may come from besides our origin (the site's and the public media host). */
  imageSources: readonly string[];
}

export function createIssuePreviewRoutes({ issues, imageSources }: IssuePreviewRoutesDeps) {
  const headers = mailViewHeaders(imageSources);
  return new Hono<AppEnv>().get('/previews/:token', async (c) => c.body(await issues.previewHtml(c.req.param('token')), 200, headers));
}
