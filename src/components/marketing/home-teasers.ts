/**
 * The home page's teasers (spec point 2). Tools and courses are a fixed selection (the spec's
 * sample data); titles, descriptions and the courses' one-time prices (the spec's $149, $199 and
 * $129, in each course's frontmatter, so Home shows what checkout charges) come from the content. Posts are the latest three at build time.
 * Build time only: reads content through the build reader.
 */
import type { PublicBlog, PublicCourse, PublicTool } from '../../lib/content/registry.ts';
import { getBuildReader } from '../../lib/server/context.ts';

const TEASER_TOOL_SLUGS = ['seo-audit-checklist', 'marketing-roi-calculator', 'content-calendar-template'] as const;
const TEASER_COURSE_SLUGS = ['ai-automation-playbook', 'chatbot-development-essentials', 'content-strategy-sprint'] as const;

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
    TEASER_COURSE_SLUGS.map(async (slug) => {
      const course = required(await reader.get('course', slug), `course "${slug}"`);
      return { ...course, price: required(course.price, `a price for course "${slug}"`) };
    }),
  );
  return { posts, tools, courses };
}
