/**
 * Every body kept in git (article bodies, lesson texts) rendered once under the staff profile, so
 * one that cannot render (an MDX import, a syntax error, a body past the size limit) fails
 * `npm run bundle` and `npm test`, naming its item, instead of failing a reader later. The server
 * no longer renders them all as it starts: that cost every start of every instance a renderer
 * thread and the Markdown pipeline before its first page, for files that cannot change once bundled.
 */
import { createMdxSource } from './mdx-source.ts';
import { renderBody } from './render.ts';
import { splitPreview } from './body.ts';

/** What cannot be rendered among the bodies under `contentDir`, one line per item (none: an empty list). */
export async function gitBodyProblems(contentDir: string, render: typeof renderBody = renderBody): Promise<string[]> {
  const content = await createMdxSource(contentDir);
  const problems: string[] = [];
  const attempt = (what: string, renderIt: () => unknown) => {
    try {
      renderIt();
    } catch (err) {
      problems.push(`${what}: ${(err as Error).message}`);
    }
  };
  for (const item of content.list('blog'))
    if (item.type === 'blog')
      attempt(`content/${content.file('blog', item.slug)}`, () => render(splitPreview(item.content).body, item.contentFormat));
  for (const item of content.list('course'))
    if (item.type === 'course')
      for (const lesson of item.sections.flatMap((section) => section.lessons))
        if (lesson.content)
          attempt(`lesson "${lesson.id}" of content/${content.file('course', item.slug)}`, () => render(lesson.content!, 'markdown'));
  return problems;
}
