/**
 * The newsletter's demo issues for the embedded defaults, seeded with the demo accounts (compose.ts,
 * never in a deployment), so a new user finds `/newsletter` with past issues: a free one and a
 * subscriber one, each with a public part above the preview line and the rest behind the access
 * rule. They are written as sent to nobody (no copies, every count 0): the archive shows them and
 * the admin's Newsletter tab lists them as sent to 0 recipients. An issue whose slug exists is left alone.
 */
import { MARKDOWN_PREVIEW_LINE } from '#shared/content/markdown.ts';
import { AUDIENCES } from '#shared/newsletter.ts';
import type { Db } from '../platform/db/client.ts';
import { createIssueStore, type NewIssue } from './issues/store.ts';

const DAY_MS = 86_400_000;

type DemoIssue = Omit<NewIssue, 'createdBy' | 'audience'> & { daysAgo: number };

export const DEMO_ISSUES: DemoIssue[] = [
  {
    slug: 'local-search-checklist',
    subject: 'Your local search checklist for the holidays',
    previewText: 'Five fixes that bring nearby customers in before the rush.',
    accessLevel: 'free',
    daysAgo: 28,
    body: [
      'Holiday shoppers search "near me" more than at any other time of the year. Before the rush, spend an hour on these five fixes.',
      '',
      MARKDOWN_PREVIEW_LINE,
      '',
      '## The checklist',
      '',
      '1. **Hours**: add your holiday hours to your Google Business Profile now; wrong hours are the most common complaint in reviews.',
      '2. **Photos**: upload three recent photos of your shop front and best sellers.',
      '3. **Reviews**: answer every review from the last three months, good or bad, in your own words.',
      '4. **Categories**: check your primary category matches what people search for, not what you call yourself.',
      '5. **Your site**: put your address and phone number in the footer of every page, as text, not an image.',
      '',
      'Reply to this email with your questions: we read every one.',
    ].join('\n'),
  },
  {
    slug: 'email-that-sells',
    subject: 'Members: the welcome email that outsells every other',
    previewText: 'What three years of client data say about the first email a subscriber gets.',
    accessLevel: 'subscriber',
    daysAgo: 7,
    body: [
      'Across our clients, the welcome email earns more per send than any campaign. Most businesses still send a one-line "Thanks for subscribing".',
      '',
      MARKDOWN_PREVIEW_LINE,
      '',
      '## What the best ones do',
      '',
      '- **Arrive at once**: sent within a minute, it is opened about twice as often as one sent the next day.',
      '- **Say what comes next**: how often you write and what about, so the next email is expected.',
      '- **Ask one question**: "What brought you here?" Replies teach you more than any survey and tell inboxes you are wanted.',
      '- **Offer one next step**: your best article, a free tool or a first-order discount, never all three.',
      '',
      'Our email course walks through writing yours, with templates for five kinds of business.',
    ].join('\n'),
  },
];

/** Seeds the demo issues as sent by `adminId` (the demo admin). */
export async function seedDemoNewsletter(db: Db, adminId: string, now = new Date()): Promise<void> {
  const store = createIssueStore(db);
  for (const { daysAgo, ...issue } of DEMO_ISSUES)
    await store.seedSent({ ...issue, audience: [...AUDIENCES], createdBy: adminId, sentAt: new Date(now.getTime() - daysAgo * DAY_MS) });
}
