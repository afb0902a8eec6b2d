/**
 * The community's demo content for the embedded defaults, seeded with the demo accounts
 * (functions/users/demo.ts; compose.ts, never in a deployment): a `general` category anyone reads
 * and free members post in, and a `premium-lounge` for premium members, each with a few threads
 * and replies by the demo members, so a new user sees it working. A category is seeded with its
 * threads only when this start made it (one transaction), so instances starting together seed once
 * and a category staff deleted or renamed is never put back with its threads twice.
 */
import type { AccessLevel, Role } from '#shared/access.ts';
import type { Db } from '../platform/db/client.ts';
import { DEMO_POST_HTML } from './demo-html.ts';
import { createCommunityStore } from './store.ts';
import type { CategoryRow } from './tables.ts';

type Who = 'free' | 'subscriber' | 'premium' | 'editor' | 'admin';

interface DemoThread {
  by: Who;
  title: string;
  body: string;
  pinned?: boolean;
  /** Days before the seed the thread was started. */
  daysAgo: number;
  replies: { by: Who; body: string }[];
}

interface DemoCategory extends Pick<CategoryRow, 'slug' | 'name' | 'description' | 'accessLevel' | 'anyoneReads' | 'position'> {
  threads: DemoThread[];
}

export const DEMO_COMMUNITY: DemoCategory[] = [
  {
    slug: 'general',
    name: 'General',
    description: 'Questions, wins and ideas about growing a business online. Anyone can read; members post.',
    accessLevel: 'free',
    anyoneReads: true,
    position: 1,
    threads: [
      {
        by: 'admin',
        title: 'Welcome to the Beacon Growth community',
        pinned: true,
        daysAgo: 21,
        body: [
          'This is the place to ask questions, share what worked and learn from other members.',
          '',
          '- Be kind and specific: numbers and context get better answers.',
          '- Keep client details private.',
          '- Report a post that breaks these rules: our team reviews every report.',
          '',
          'Introduce yourself below!',
        ].join('\n'),
        replies: [
          { by: 'free', body: 'Hi all, Frankie here. I run a small bakery in Baltimore and want more local orders online.' },
          { by: 'subscriber', body: 'Welcome, Frankie! Sam, freelance copywriter. Happy to help with product descriptions.' },
        ],
      },
      {
        by: 'free',
        title: "What's your best low-budget local SEO win?",
        daysAgo: 9,
        body: 'I have about two hours a week for marketing. Where should I start with local search?',
        replies: [
          {
            by: 'subscriber',
            body: 'Complete your Google Business Profile first: categories, hours, photos and a few real reviews. It took one of my clients from page two to the map pack in about six weeks.',
          },
          {
            by: 'editor',
            body: 'Agree with Sam. The **Local SEO checklist** in our tools walks through it step by step. After that, ask every happy customer for a review the same day.',
          },
          { by: 'free', body: 'Thank you both. Starting with the profile this week.' },
        ],
      },
      {
        by: 'subscriber',
        title: 'Email open rates dropped overnight. Anyone else?',
        daysAgo: 4,
        body: 'Opens went from 42% to 28% in a week, but clicks held steady. Is it the numbers or my list?',
        replies: [
          {
            by: 'premium',
            body: 'Most likely the numbers: mail apps that load images for privacy make opens unreliable. Track clicks and replies instead.',
          },
        ],
      },
    ],
  },
  {
    slug: 'premium-lounge',
    name: 'Premium lounge',
    description: 'A quieter room for premium members: deeper strategy, funnel reviews and direct answers from our consultants.',
    accessLevel: 'premium',
    anyoneReads: false,
    position: 2,
    threads: [
      {
        by: 'editor',
        title: 'Monthly strategy clinic: bring your questions',
        pinned: true,
        daysAgo: 14,
        body: 'Post your question here before the last Thursday of the month and we will answer the most useful ones in detail.',
        replies: [{ by: 'premium', body: 'How would you split a $2,000 monthly budget between search ads and content?' }],
      },
      {
        by: 'premium',
        title: 'Funnel review: 3% trial-to-paid, where is the leak?',
        daysAgo: 6,
        body: 'The landing page converts 11% of visitors to a trial, but only 3% of trials become paid. The onboarding sequence is five mails over 14 days.',
        replies: [
          {
            by: 'editor',
            body: 'Look at activation before the mails: what share of trials complete the first key action on day one? Under 40%, fix the first session before the sequence.',
          },
          { by: 'premium', body: '28%. That explains a lot. Testing a guided setup next week.' },
        ],
      },
    ],
  },
];

const DAY_MS = 24 * 3600 * 1000;
const HOUR_MS = 3600 * 1000;

/** A demo account as compose.ts seeded it. */
export interface DemoAccount {
  id: string;
  role: Role;
  accessLevel: AccessLevel;
}

/** A demo post's HTML, rendered ahead (demo-html.ts), so a start that seeds never loads the renderer. */
function htmlOf(body: string): string {
  const html = DEMO_POST_HTML[body];
  if (html === undefined) throw new Error('A demo post changed: run "node scripts/demo-html.ts" to render it again.');
  return html;
}

/**
 * Seeds the demo community, written by the demo accounts (a member of each level, an editor, an
 * admin). Categories that exist already are left alone, with their threads.
 */
export async function seedDemoCommunity(db: Db, accounts: DemoAccount[], now = new Date()): Promise<void> {
  const authors = new Map(accounts.map((a) => [a.role === 'member' ? a.accessLevel : a.role, a.id]));
  const authorOf = (who: Who) => {
    const id = authors.get(who);
    if (!id) throw new Error(`The community's demo needs a demo ${who} account.`);
    return id;
  };
  await db.transaction(async (tx) => {
    const store = createCommunityStore(tx);
    for (const { threads, ...values } of DEMO_COMMUNITY) {
      const category = await store.seedCategory(values);
      if (!category) continue;
      for (const thread of threads) {
        const startedAt = now.getTime() - thread.daysAgo * DAY_MS;
        await store.seedThread({
          categoryId: category.id,
          title: thread.title,
          pinned: thread.pinned ?? false,
          posts: [thread, ...thread.replies].map((post, i) => ({
            authorId: authorOf(post.by),
            body: post.body,
            html: htmlOf(post.body),
            createdAt: new Date(startedAt + i * 5 * HOUR_MS),
          })),
        });
      }
    }
  });
}
