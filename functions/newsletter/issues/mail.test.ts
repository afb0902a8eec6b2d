import { describe, expect, it } from 'vitest';
import { ACCESS_LEVELS, type AccessLevel } from '#shared/access.ts';
import { SITE } from '#shared/site.ts';
import { renderHere } from '../../content/render.ts';
import { BodyRenderError } from '../../content/body.ts';
import { assertRenders, copyTemplate, cutIssue, fillCopy, type CopyLevel, type IssueText } from './mail.ts';

const SITE_URL = 'https://www.beacongrowth.co';
const render = renderHere();
const COPIES = { siteUrl: SITE_URL, render };
const GATED = 'GATED-SENTENCE-4b1d only for readers at the level';
const issueAt = (accessLevel: AccessLevel, overrides: Partial<IssueText> = {}): IssueText => ({
  slug: 'march-growth-notes',
  subject: 'March growth notes',
  previewText: 'Three tactics we tested this month.',
  body: `The public opening **anyone** may read.\n\n<!-- preview -->\n\nThe rest: ${GATED}.`,
  accessLevel,
  ...overrides,
});
const LEVELS: CopyLevel[] = [null, ...ACCESS_LEVELS];
const RANK = { free: 0, subscriber: 1, premium: 2 } as const;
const entitled = (level: CopyLevel, issue: AccessLevel) => level !== null && RANK[level] >= RANK[issue];
/** Everything a recipient receives: subject, both parts and every header. */
const wholeCopy = async (level: CopyLevel, issue: IssueText) => {
  const copy = fillCopy(await copyTemplate(issue, level, COPIES), 'token-for-this-reader');
  return { copy, all: [copy.subject, copy.html, copy.text, JSON.stringify(copy.headers)].join('\n') };
};

describe('cutting an issue at each recipient level', () => {
  describe.each(ACCESS_LEVELS)('an issue at the %s level', (issueLevel) => {
    it.each(LEVELS)('gives a %s recipient exactly what their level opens', async (level) => {
      const issue = issueAt(issueLevel);
      const { copy, all } = await wholeCopy(level, issue);
      expect(all).toContain('The public opening');
      expect(copy.html).toContain('<strong>anyone</strong>');
      if (entitled(level, issueLevel)) {
        expect(copy.html).toContain(GATED);
        expect(copy.text).toContain(GATED);
        expect(all).not.toContain('to read the rest');
      } else {
        // Not in the HTML, the text part, the subject or any header.
        expect(all).not.toContain('GATED-SENTENCE-4b1d');
        const visitorOnFree = level === null && issueLevel === 'free';
        const label = visitorOnFree ? 'Sign up free to read the rest' : 'Upgrade to read the rest';
        expect(copy.html).toContain(label);
        expect(copy.text).toContain(label);
        expect(copy.html).toContain(
          visitorOnFree ? `${SITE_URL}/signup?redirect=%2Fnewsletter%2Fmarch-growth-notes` : `${SITE_URL}/pricing`,
        );
      }
      expect(all).not.toContain('<!-- preview -->');
    });
  });

  it('cuts staff-level copies whole, since the cut level is the effective one', async () => {
    expect((await cutIssue(issueAt('premium'), 'premium', SITE_URL, render)).whole).toBe(true);
    expect((await cutIssue(issueAt('premium'), 'subscriber', SITE_URL, render)).whole).toBe(false);
  });

  it('gives a copy below the level of an issue without a preview line only the preview text', async () => {
    const issue = issueAt('subscriber', { body: `All of it is gated: ${GATED}.` });
    const { copy, all } = await wholeCopy('free', issue);
    expect(all).not.toContain('GATED-SENTENCE-4b1d');
    expect(copy.html).toContain('Three tactics we tested this month.');
    expect(copy.html).toContain('The rest of this issue is for Subscriber members.');
    expect((await wholeCopy('subscriber', issue)).copy.html).toContain(GATED);
  });
});

describe('an issue copy', () => {
  const hostile = '<script>alert("x")</script> & <b>bold</b>';

  it('shows HTML in the subject and preview text as text', async () => {
    const { copy } = await wholeCopy('premium', issueAt('free', { subject: `Hello ${hostile}`, previewText: hostile }));
    expect(copy.subject).toBe(`Hello ${hostile}`);
    expect(copy.html).not.toContain('<script>');
    expect(copy.html).not.toContain('<b>bold</b>');
    expect(copy.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;');
    // The hidden preheader carries the preview text.
    expect(copy.html).toMatch(/<span style="display:none[^"]*">&lt;script&gt;/);
  });

  it('drops raw HTML written in the body (no scripts, handlers or frames reach a mailbox)', async () => {
    const body = `Before\n\n<script>alert(1)</script>\n\n<img src="x" onerror="alert(2)">\n\n<iframe src="https://evil.example"></iframe>\n\n[link](javascript:alert(3))`;
    const { copy } = await wholeCopy('premium', issueAt('free', { body }));
    expect(copy.html).toContain('Before');
    expect(copy.html).not.toMatch(/<script|onerror|<iframe|javascript:/i);
  });

  it('carries one-click unsubscribe headers, a visible unsubscribe link and the sender footer, with the reader’s own token', async () => {
    const { copy } = await wholeCopy('subscriber', issueAt('subscriber'));
    expect(copy.headers).toEqual({
      'List-Unsubscribe': `<${SITE_URL}/api/newsletter/unsubscribe?token=token-for-this-reader>, <mailto:${SITE.email}?subject=unsubscribe>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    expect(copy.html).toContain(
      `<a href="${SITE_URL}/newsletter/unsubscribe?token=token-for-this-reader" style="color:#64748b">Unsubscribe</a>`,
    );
    expect(copy.text).toContain(`Unsubscribe: ${SITE_URL}/newsletter/unsubscribe?token=token-for-this-reader`);
    expect(copy.html).toContain(SITE.location);
    expect(copy.text).toContain(`${SITE.name} · ${SITE.location} · ${SITE.email}`);
    expect(copy.html).toContain(`${SITE_URL}/newsletter/march-growth-notes`);
    expect(copy.html).not.toMatch(/unsubscribe-[0-9a-f]{8}-/);
  });

  it('has no tracking: no image other than the content’s, no rewritten links', async () => {
    const { copy } = await wholeCopy('premium', issueAt('free', { body: 'See [our tools](https://www.beacongrowth.co/tools).' }));
    expect(copy.html).not.toMatch(/<img/);
    expect(copy.html).toContain('href="https://www.beacongrowth.co/tools"');
  });

  it('prefixes a test copy’s subject', async () => {
    expect((await copyTemplate(issueAt('free'), 'free', COPIES, '[Test] ')).rendered.subject).toBe('[Test] March growth notes');
  });

  it('refuses a body that cannot render (422 on the body), in either part, instead of failing the send', async () => {
    const hostile = `${'>'.repeat(1000)} x`;
    for (const body of [hostile, `Public.\n\n<!-- preview -->\n\n${hostile}`, `${hostile}\n\n<!-- preview -->\n\nRest.`]) {
      await expect(assertRenders({ body }, render), body.slice(0, 20)).rejects.toThrow(BodyRenderError);
      await expect(copyTemplate(issueAt('free', { body }), 'premium', COPIES)).rejects.toThrow(expect.objectContaining({ status: 422 }));
    }
    await expect(assertRenders({ body: issueAt('free').body }, render)).resolves.toBeUndefined();
  });
});
