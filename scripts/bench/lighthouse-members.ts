/**
 * The signed-in pages of the Lighthouse bench, as the premium demo member sees them: /account (its
 * upcoming events with the join button showing), /account/support (one request), a thread they have
 * just started, and an event whose join button is showing. What those pages show is made through the
 * API first: an online event starting in 10 minutes (its link opened 5 minutes ago, so for the next
 * 40 minutes the join button shows), the member registered for it, a new thread in `general` and a
 * support request. Then the member signs in through /signin in the very Chromium profile Lighthouse
 * drives, so the session sits in that profile's localStorage, as after a real sign-in.
 */
import { chromium } from 'playwright';
import { DEMO_PASSWORD } from '../../functions/users/demo.ts';

/** The member the signed-in pages are audited as. */
export const MEMBER = 'premium@demo.beacongrowth.co';
const ADMIN = 'admin@demo.beacongrowth.co';

/** The member's own pages, `noindex` on purpose: their SEO is judged without `is-crawlable`. */
export const PRIVATE_PAGES = ['/account', '/account/support'];

/** The signed-in pages, by label; the thread and the event are made by `prepareMemberPages`. */
export const MEMBER_PAGES = ['/account', '/account/support', '/community/threads/{a new thread}', '/events/{starting in 10 minutes}'];

async function signInByApi(url: string, email: string): Promise<string> {
  const res = await fetch(`${url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  if (!res.ok) throw new Error(`sign-in of ${email}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

async function post<T>(url: string, token: string, body: unknown): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`POST ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Makes what the member pages show; answers the address of each labelled page. */
export async function prepareMemberPages(url: string): Promise<Map<string, string>> {
  const admin = await signInByApi(url, ADMIN);
  const member = await signInByApi(url, MEMBER);
  const startsAt = new Date(Date.now() + 10 * 60_000).toISOString().slice(0, 16);
  const event = await post<{ item: { slug: string }; path: string }>(`${url}/api/content/events`, admin, {
    title: 'Live growth Q&A',
    description: 'Half an hour of questions and answers with a consultant, live.',
    tags: ['Webinar'],
    accessLevel: 'premium',
    startsAt,
    timeZone: 'UTC',
    durationMinutes: 30,
    format: 'online',
    joinUrl: 'https://meet.example.com/live-growth-qa',
  });
  await post(`${url}/api/events/${event.item.slug}/registration`, member, {});
  const thread = await post<{ id: string }>(`${url}/api/community/threads`, member, {
    category: 'general',
    title: 'How often do you refresh old blog posts?',
    body: 'We have about sixty posts from the last three years. Which ones would you update first, and how do you measure whether it worked?',
  });
  await post(`${url}/api/support/requests`, member, {
    subject: 'Invoice for last month',
    message: 'Could you send me an invoice for last month with our company name on it? Thank you.',
  });
  return new Map([
    ['/account', '/account'],
    ['/account/support', '/account/support'],
    [MEMBER_PAGES[2]!, `/community/threads/${thread.id}`],
    [MEMBER_PAGES[3]!, event.path],
  ]);
}

/** Signs the member in through the sign-in form in the browser Lighthouse drives (its debugging port). */
export async function signInInBrowser(port: number, url: string): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const page = await browser.contexts()[0]!.newPage();
    await page.goto(`${url}/signin`);
    const form = page.locator('main form[aria-label="Sign in"]');
    await form.getByLabel('Email').fill(MEMBER);
    await form.getByLabel('Password').fill(DEMO_PASSWORD);
    await form.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL((at) => at.pathname === '/');
    await page.close();
  } finally {
    // Only disconnects: the browser and its profile stay for Lighthouse.
    await browser.close();
  }
}
