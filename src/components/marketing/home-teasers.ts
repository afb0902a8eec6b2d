/**
 * The home page's teasers (spec point 2). Tools and courses are a fixed selection (the spec's
 * sample data); titles, descriptions and the courses' one-time prices (the spec's $149, $199 and
 * $129, in each course's frontmatter, so Home shows what checkout charges) come from the content.
 * Posts are the latest three of both sources when the page is rendered (per request, from the
 * server's cached reader). Server side only (page frontmatter).
 */
import type { PublicContentReader } from '#shared/content/reader.ts';
import type { PublicBlog, PublicCourse, PublicTool } from '#shared/content/registry.ts';

const TEASER_TOOL_SLUGS = ['seo-audit-checklist', 'marketing-roi-calculator', 'content-calendar-template'] as const;
const TEASER_COURSE_SLUGS = ['ai-automation-playbook', 'chatbot-development-essentials', 'content-strategy-sprint'] as const;

export interface HomeTeasers {
  /** Undefined when the articles could not be read (the page leaves the section out). */
  posts: PublicBlog[] | undefined;
  tools: PublicTool[];
  courses: (PublicCourse & { price: number })[];
}

export const TEASER_SLUGS = { tool: TEASER_TOOL_SLUGS, course: TEASER_COURSE_SLUGS } as const;

function required<T>(item: T | undefined, what: string): T {
  // A renamed or deleted file would leave a dead link on the home page: fail loudly instead
  // (home-teasers.test.ts checks the selection against content/ before anything ships).
  if (!item) throw new Error(`Home page teaser: ${what} not found in content/. Update src/components/marketing/home-teasers.ts.`);
  return item;
}

/** The teasers from `reader`; the fixed tools and courses are git items, so only the posts can fail to load. */
export async function loadHomeTeasers(reader: PublicContentReader): Promise<HomeTeasers> {
  const posts = await reader.list('blog').then(
    (all) => all.slice(0, 3),
    (err: unknown) => {
      console.error('Home page: the latest articles could not be read', err);
      return undefined;
    },
  );
  const tools = await Promise.all(TEASER_TOOL_SLUGS.map(async (slug) => required(await reader.get('tool', slug), `tool "${slug}"`)));
  const courses = await Promise.all(
    TEASER_COURSE_SLUGS.map(async (slug) => {
      const course = required(await reader.get('course', slug), `course "${slug}"`);
      return { ...course, price: required(course.price, `a price for course "${slug}"`) };
    }),
  );
  return { posts, tools, courses };
}
