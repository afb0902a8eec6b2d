/**
 * The home page's teasers (spec point 2). Tools and courses are a fixed selection (the spec's
 * sample data; course prices are the spec's $149, $199 and $129); titles and descriptions come from
 * the content itself so they never drift. Posts are the latest three at build time.
 * Build time only: reads content through the build reader.
 */
import type { PublicBlog, PublicCourse, PublicTool } from '../../lib/content/registry.ts';
import { getBuildReader } from '../../lib/server/context.ts';

const TEASER_TOOL_SLUGS = ['seo-audit-checklist', 'marketing-roi-calculator', 'content-calendar-template'] as const;
const TEASER_COURSES = [
  { slug: 'ai-automation-playbook', price: 149 },
  { slug: 'chatbot-development-essentials', price: 199 },
  { slug: 'content-strategy-sprint', price: 129 },
] as const;

export interface HomeTeasers {
  posts: PublicBlog[];
  tools: PublicTool[];
  courses: (PublicCourse & { price: number })[];
}

function required<T>(item: T | undefined, what: string): T {
  // A renamed or deleted file would leave a dead link on the home page: fail the build instead.
  if (!item) throw new Error(`Home page teaser: ${what} not found in content/. Update src/components/marketing/home-teasers.ts.`);
  return item;
}

export async function loadHomeTeasers(): Promise<HomeTeasers> {
  const reader = await getBuildReader();
  const posts = (await reader.list('blog')).slice(0, 3);
  const tools = await Promise.all(TEASER_TOOL_SLUGS.map(async (slug) => required(await reader.get('tool', slug), `tool "${slug}"`)));
  const courses = await Promise.all(
    TEASER_COURSES.map(async ({ slug, price }) => ({ ...required(await reader.get('course', slug), `course "${slug}"`), price })),
  );
  return { posts, tools, courses };
}
