/**
 * Stored XSS in what members write (issue 25). The hostile-input corpus goes in through the API as a
 * member and staff would send it: a thread's title and opening post, replies (the member's, and an
 * editor's that the member reports, so it waits in the moderation queue with the report's reason), a
 * comment under an article, and a support request's subject and message with a staff reply. Then a member, an editor and an admin view it
 * where it shows (the thread page, the category list and search, the article's comments,
 * /account/support, the admin Moderation and Support tabs): no dialog opens, the browser reports no
 * CSP violation, and the rendered DOM has no `on*` attribute and no `javascript:`, `data:` or
 * `vbscript:` address. Each view also shows the hostile text (as text) or its sanitised links, so a
 * view that rendered nothing cannot pass, and no bidirectional or zero-width control character
 * reaches the page (titles and subjects cannot read backwards: the server drops them on write).
 *
 * Staff's writing and mail too (issue 32): an editor's article whose body names an image on our site
 * and one elsewhere shows only ours, and its page and the blog list (covers) make no CSP report; the
 * admin's Recent Emails tab (a real layout of inline styles) and the editor's newsletter preview (the
 * corpus as an issue, shown in its frame) make none either, where they made hundreds. Longer than
 * the house's files on purpose: one corpus, seeded once, read from every place it shows.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { eq, like } from 'drizzle-orm';
import type { SessionAnswer } from '../support/answers.ts';
import type { ThreadPage } from '../../functions/community/answers.ts';
import type { Written } from '../../functions/community/service.ts';
import { DEMO_PASSWORD } from '../../functions/users/demo.ts';
import { seriousViolations } from './axe.ts';
import { testClient } from './members.ts';
import { withSiteDb } from './support.ts';
import { emails } from '../../functions/email/tables.ts';
import { html } from '../../functions/email/templates/html.ts';
import { layout } from '../../functions/email/templates/layout.ts';
import { newsletterIssues } from '../../functions/newsletter/tables.ts';

/** This run's mark, in every title and body (letters only, so full-text search finds it as one word). */
const RUN = `xss${Date.now()
  .toString(36)
  .replace(/\d/g, (d) => 'abcdefghij'[Number(d)]!)}`;
const ARTICLE = 'social-media-metrics-that-predict-revenue';
const CONTROLS = /[\u061c\u200b\u200e\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/;

/** A title (one line, 150 characters at most) that tries markup, a handler and a right-to-left override. */
const TITLE = `${RUN} <img src=x onerror=alert(1)> <script>alert(2)</script> \u202egpj.exe\u200b javascript:alert(3)`;

/** The corpus as Markdown: raw HTML, handlers, script addresses in every spelling, SVG, data URLs, invisible characters. */
const BODY = [
  `${RUN}: the corpus follows.`,
  '<script>alert(10)</script>',
  '<img src=x onerror=alert(11)>',
  '<svg onload=alert(12)><circle r="1"/></svg>',
  '<iframe src="javascript:alert(13)"></iframe>',
  '<a href="javascript:alert(14)" onclick="alert(15)">raw link</a>',
  '<details open ontoggle=alert(16)><summary>x</summary></details>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(17)>',
  '[plain](javascript:alert(18))',
  '[upper](JAVASCRIPT:alert(19))',
  '[entity](&#106;avascript:alert(20))',
  '[tab](jav&#x09;ascript:alert(21))',
  '[spaced]( javascript:alert(22))',
  '[angled](<javascript:alert(23)>)',
  '<javascript:alert(24)>',
  '[vb](vbscript:msgbox(25))',
  '[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgyNik8L3NjcmlwdD4=)',
  '![svg image](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMjcpPg==)',
  '![remote image](https://example.com/pixel.png)',
  '[quote break](https://example.com/"onmouseover="alert(28))',
  '<https://example.com/x?a="onmouseover=alert(29)>',
  'An autolink: https://example.com/safe and www.example.com',
  '[reference link][evil] and [another][data]',
  '',
  '[evil]: javascript:alert(30)',
  '[data]: data:text/html,<script>alert(31)</script>',
  '',
  '`<script>alert(32)</script>` in code, and a [mail link](mailto:help@example.com)',
  `Invisible: zero\u200bwidth, a right-to-left \u202eoverride\u202c, an isolate \u2067here\u2069 and a BOM \ufeff.`,
].join('\n\n');

/** An editor's article: an image on our site and one elsewhere, above its preview line, and a cover of ours. */
const ARTICLE_BODY = [
  `${RUN}: an editor's article.`,
  '![Our placeholder](/images/placeholder.svg)',
  '![A pixel elsewhere](https://example.com/pixel.png)',
  '<!-- preview -->',
  // The corpus but its invisible characters, which staff bodies keep (only members' text loses them).
  ...BODY.split('\n\n').filter((line) => !line.startsWith('Invisible:')),
].join('\n\n');

/** Who views what, and their session as the auth client would have stored it. */
const sessions = new Map<'member' | 'editor' | 'admin', SessionAnswer>();
const seeded = { thread: '', request: '', article: '', issue: `${RUN} newsletter`, mail: `${RUN} mail` };

async function signIn(request: APIRequestContext, who: string): Promise<SessionAnswer> {
  const res = await request.post('/auth/v1/token?grant_type=password', {
    headers: testClient(),
    data: { email: `${who}@demo.beacongrowth.co`, password: DEMO_PASSWORD },
  });
  expect(res.status(), `sign-in ${who}`).toBe(200);
  return (await res.json()) as SessionAnswer;
}

/** An API write as `who`; answers the JSON. */
async function write<T>(request: APIRequestContext, who: SessionAnswer, path: string, data: unknown, status = 201): Promise<T> {
  const res = await request.post(path, { headers: { authorization: `Bearer ${who.access_token}` }, data });
  expect(res.status(), `${path}: ${await res.text()}`).toBe(status);
  return (await res.json()) as T;
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  const [member, editor, admin] = await Promise.all(['subscriber', 'editor', 'admin'].map((who) => signIn(request, who)));
  sessions.set('member', member!).set('editor', editor!).set('admin', admin!);

  // The member's thread (held if the hold rule takes the member for new: then an admin approves it).
  const thread = await write<Written>(request, member!, '/api/community/threads', { category: 'general', title: TITLE, body: BODY });
  seeded.thread = thread.id;
  const read = await request.get(`/api/community/threads/${thread.id}`, { headers: { authorization: `Bearer ${member!.access_token}` } });
  const { thread: stored, posts } = (await read.json()) as ThreadPage;
  // Titles lose the invisible characters on write; the markup stays text.
  expect(stored.title).not.toMatch(CONTROLS);
  expect(stored.title).toContain('<script>alert(2)</script>');
  if (thread.status === 'held') await write(request, admin!, `/api/admin/community/posts/${posts[0]!.id}`, { action: 'approve' }, 200);

  // Replies by the editor and the member; the member reports the editor's, which puts it in the moderation queue.
  const staffReply = await write<Written>(request, editor!, `/api/community/threads/${thread.id}/replies`, { body: BODY });
  expect(staffReply.status).toBe('visible');
  await write(request, member!, `/api/community/threads/${thread.id}/replies`, { body: BODY });
  await write(request, member!, `/api/community/posts/${staffReply.id}/report`, { reason: `${RUN} <img src=x onerror=alert(40)> \u202e` });

  // A comment under a free article, approved.
  const comment = await write<Written>(request, member!, `/api/community/comments/blogs/${ARTICLE}`, { body: BODY });
  if (comment.status === 'held') await write(request, admin!, `/api/admin/community/posts/${comment.id}`, { action: 'approve' }, 200);

  // A support request and staff's reply.
  const opened = await write<{ id: string }>(request, member!, '/api/support/requests', { subject: TITLE, message: BODY });
  seeded.request = opened.id;
  await write(request, admin!, `/api/support/requests/${opened.id}/messages`, { body: BODY });

  // Staff's writing: an article with images, and the corpus as a newsletter issue.
  const article = await write<{ item: { slug: string } }>(request, editor!, '/api/content/blogs', {
    title: `${RUN} article`,
    description: 'An editor’s article with an image of ours and one from elsewhere.',
    accessLevel: 'free',
    media: [{ url: '/media/cover-content-strategy.jpg', type: 'image', alt: 'Cover' }],
    content: ARTICLE_BODY,
  });
  seeded.article = article.item.slug;
  const issue = { subject: seeded.issue, previewText: `${RUN} preview`, body: ARTICLE_BODY, accessLevel: 'premium', audience: ['premium'] };
  await write(request, editor!, '/api/admin/newsletter/issues', issue);
  // A sent message as the outbox keeps it: a whole document laid out with inline styles, the newest of the recent list.
  await withSiteDb((db) =>
    db.insert(emails).values({
      subject: seeded.mail,
      bodyHtml: layout({
        siteUrl: 'https://beacongrowth.co',
        preheader: 'Hidden preheader',
        content: html`<p>${RUN}: <strong>a mail</strong>.</p>`,
      }),
      bodyText: RUN,
      to: 'reader@example.com',
      from: 'Beacon Growth <hello@beacongrowth.co>',
      template: 'contact-acknowledgement',
      status: 'sent',
      sentAt: new Date(),
      updatedAt: new Date(Date.now() + 3_600_000),
    }),
  );
});

test.afterAll(() =>
  withSiteDb(async (db) => {
    await db.delete(emails).where(eq(emails.subject, seeded.mail));
    await db.delete(newsletterIssues).where(like(newsletterIssues.subject, `${RUN}%`));
  }),
);

/** A page signed in as `who` (the session stored as the auth client keeps it) that records dialogs and CSP violations. */
async function viewAs(page: Page, who: 'member' | 'editor' | 'admin'): Promise<{ problems: string[] }> {
  const problems: string[] = [];
  page.on('dialog', (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('console', (message) => {
    if (/content security policy/i.test(message.text())) problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  await page.addInitScript(
    (session: string) => {
      // Frames get this script too: a sandboxed one (the newsletter preview's) has no storage to hold the session.
      if (window === window.top) localStorage.setItem('sb-127-auth-token', session);
      document.addEventListener('securitypolicyviolation', (e) => {
        const seen = ((window as unknown as { __csp?: string[] }).__csp ??= []);
        seen.push(`${e.violatedDirective} ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}`);
      });
    },
    JSON.stringify(sessions.get(who)),
  );
  return { problems };
}

/** What a view must not hold, read from its DOM and the browser's reports (a rendered view, with the run's text in it). */
async function expectClean(page: Page, view: string, problems: string[]) {
  await expect(page.locator('main')).toContainText(RUN);
  const found = await page.evaluate(() => {
    const bad: string[] = [];
    const address = /^(?:javascript|data|vbscript):/i;
    for (const el of document.querySelectorAll('*')) {
      for (const attr of el.attributes) {
        if (/^on/i.test(attr.name)) bad.push(`<${el.tagName.toLowerCase()} ${attr.name}>`);
        // Browsers ignore whitespace and control characters inside a scheme; so does this check.
        if (
          /^(?:href|src|action|formaction|xlink:href|srcdoc|poster|data)$/i.test(attr.name) &&
          address.test(attr.value.replace(/[\s\u0000-\u001f]/g, ''))
        )
          bad.push(`<${el.tagName.toLowerCase()} ${attr.name}="${attr.value}">`);
      }
    }
    return {
      bad,
      csp: (window as unknown as { __csp?: string[] }).__csp ?? [],
      text: document.body.innerText,
      images: document.querySelectorAll('main img[src^="data:"], main img[src*="example.com"], main svg[onload]').length,
    };
  });
  expect(found.bad, view).toEqual([]);
  expect(found.csp, view).toEqual([]);
  expect(found.images, view).toBe(0);
  expect(found.text, `${view}: a bidirectional or zero-width control character`).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200b\ufeff]/);
  expect(problems, view).toEqual([]);
}

/** The run's thread page: the title as text, the posts' links made safe. */
async function threadPage(page: Page, problems: string[], posts: number) {
  await page.goto(`/community/threads/${seeded.thread}`);
  await expect(page.getByTestId('thread-title')).toContainText('<script>alert(2)</script>');
  await expect(page.getByTestId('community-post')).toHaveCount(posts);
  await expect(page.locator('.prose-body a[rel="nofollow ugc noopener"]').first()).toBeVisible();
  await expectClean(page, 'the thread page', problems);
}

test('a member views the thread, the category, search, the comments and their support request', async ({ page }) => {
  const { problems } = await viewAs(page, 'member');
  // The opener, the editor's reply and their own.
  await threadPage(page, problems, 3);
  await page.goto('/community/general');
  await expect(page.getByRole('link', { name: new RegExp(RUN) })).toBeVisible();
  await expectClean(page, 'the category list', problems);
  await page.goto(`/community?q=${RUN}`);
  await expect(page.getByRole('link', { name: new RegExp(RUN) }).first()).toBeVisible();
  await expectClean(page, 'search', problems);
  await page.goto(`/blog/${ARTICLE}`);
  await expect(page.getByRole('list', { name: 'Comments' }).getByTestId('community-post').filter({ hasText: RUN })).toHaveCount(1);
  await expectClean(page, "the article's comments", problems);
  await page.goto(`/account/support?request=${seeded.request}`);
  await expect(page.getByRole('list', { name: 'Messages' }).getByRole('listitem')).toHaveCount(2);
  await expect(page.locator('main')).toContainText('<script>alert(2)</script>');
  await expectClean(page, 'the support request', problems);
});

test('an editor views the thread, the comments and the Moderation tab', async ({ page }) => {
  const { problems } = await viewAs(page, 'editor');
  await threadPage(page, problems, 3);
  await page.goto(`/blog/${ARTICLE}`);
  await expect(page.getByRole('list', { name: 'Comments' }).getByTestId('community-post').filter({ hasText: RUN })).toHaveCount(1);
  await expectClean(page, "the article's comments (editor)", problems);
  await page.goto('/admin');
  await page.getByRole('tab', { name: 'Moderation' }).click();
  // The editor's reply, reported, with the report's reason as text.
  await expect(page.getByRole('list', { name: 'Moderation queue' }).getByRole('listitem').filter({ hasText: RUN }).first()).toBeVisible();
  await expect(page.getByRole('list', { name: 'Reports' }).filter({ hasText: RUN })).toContainText('<img src=x onerror=alert(40)>');
  await expectClean(page, 'the Moderation tab', problems);
  // The corpus's links alone on a line are touch targets of their own, in the queue's reading style.
  expect(await seriousViolations(page)).toEqual([]);
});

test('an admin views the thread and the request in the Support tab', async ({ page }) => {
  const { problems } = await viewAs(page, 'admin');
  await threadPage(page, problems, 3);
  await page.goto('/admin');
  await page.getByRole('tab', { name: 'Support' }).click();
  await page.getByRole('group', { name: 'Show requests' }).getByRole('button', { name: 'All' }).click();
  await page
    .getByRole('list', { name: 'Support queue' })
    .getByRole('button', { name: new RegExp(RUN) })
    .click();
  await expect(page.getByRole('list', { name: 'Messages' }).getByRole('listitem')).toHaveCount(2);
  await expectClean(page, 'the Support tab', problems);
});

/** Every image shown in the page's main loads once scrolled to (none was refused or broken). */
async function expectImagesLoaded(page: Page, view: string) {
  const images = page.locator('main img').filter({ visible: true });
  for (let i = 0; i < (await images.count()); i++) {
    const image = images.nth(i);
    await image.scrollIntoViewIfNeeded();
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), `${view} image ${i}`)
      .toBe(true);
  }
}

test('a member views an editor’s article and the blog list: images of ours only, every one loaded, no CSP report', async ({ page }) => {
  const { problems } = await viewAs(page, 'member');
  await page.goto(`/blog/${seeded.article}`);
  const preview = page.getByTestId('article-preview');
  await expect(preview.locator('img[src="/images/placeholder.svg"]')).toHaveCount(1);
  // The image from elsewhere is its alt text: the page never asks that host for it.
  await expect(preview).toContainText('A pixel elsewhere');
  await expectImagesLoaded(page, 'the article');
  await expectClean(page, 'an editor’s article', problems);
  await page.goto('/blog');
  await expect(page.getByRole('link', { name: new RegExp(RUN) }).first()).toBeVisible();
  await expectImagesLoaded(page, 'the blog list');
  await expectClean(page, 'the blog list', problems);
});

test('an admin reads the Recent Emails tab: the mail’s text as it reads, and no CSP report', async ({ page }) => {
  const { problems } = await viewAs(page, 'admin');
  await page.goto('/admin');
  await page.getByRole('tab', { name: 'Recent Emails' }).click();
  const card = page.getByRole('listitem', { name: seeded.mail });
  await expect(card.getByTestId('email-preview')).toContainText(`${RUN}: a mail.`);
  await expect(card.getByTestId('email-preview').locator('strong')).toHaveText('a mail');
  await expectClean(page, 'the Recent Emails tab', problems);
});

test('an editor previews the corpus as a newsletter issue at each level: the copy in its frame, and no CSP report', async ({ page }) => {
  const { problems } = await viewAs(page, 'editor');
  await page.goto('/admin');
  await page.getByRole('tab', { name: 'Newsletter' }).click();
  await page.getByRole('listitem', { name: seeded.issue }).getByRole('button', { name: seeded.issue }).click();
  for (const level of ['Visitor', 'Premium']) {
    await page.getByRole('group', { name: 'Preview as' }).getByRole('button', { name: level, exact: true }).click();
    const copy = page.frameLocator(`iframe[title="Preview as ${level}"]`).locator('body');
    await expect(copy).toContainText(`${RUN}: an editor's article.`);
    // The mail's own layout, as the reader's mail program shows it: its inline styles apply in the frame.
    await expect(copy).toHaveCSS('background-color', 'rgb(241, 245, 249)');
    await expect(copy.locator('img[src*="example.com"]')).toHaveCount(0);
  }
  await expectClean(page, 'the newsletter preview', problems);
});
