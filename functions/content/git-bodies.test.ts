import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gitBodyProblems } from './git-bodies.ts';
import { renderBody } from './render.ts';
import type { BodyFormat } from './body.ts';

const CONTENT = path.resolve(import.meta.dirname, '../../content');

describe('gitBodyProblems (run by npm run bundle)', () => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'git-bodies-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('finds nothing wrong with the articles and lessons in content/', async () => {
    expect(await gitBodyProblems(CONTENT)).toEqual([]);
  });

  it('names an article whose body cannot render, and a lesson too', async () => {
    const article = readdirSync(path.join(CONTENT, 'blog')).find((file) => file.endsWith('.mdx'))!;
    const course = readdirSync(path.join(CONTENT, 'courses')).find((file) => file.endsWith('.mdx'))!;
    mkdirSync(path.join(scratch, 'blog'));
    mkdirSync(path.join(scratch, 'courses'));
    const text = readFileSync(path.join(CONTENT, 'blog', article), 'utf8');
    writeFileSync(path.join(scratch, 'blog', article), `${text}\n\nimport X from "./x.js"\n\n<X />\n`);
    writeFileSync(path.join(scratch, 'courses', course), readFileSync(path.join(CONTENT, 'courses', course)));
    // No lesson in a valid file fails to render today: the first lesson stands in for one that would.
    const firstLesson = (source: string, format: BodyFormat) => {
      if (format === 'markdown' && !seen++) throw new Error('Too complex');
      return renderBody(source, format);
    };
    let seen = 0;
    const problems = await gitBodyProblems(scratch, firstLesson);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(new RegExp(`^content/blog/${article}: `));
    expect(problems[1]).toMatch(new RegExp(`^lesson "[^"]+" of content/courses/${course}: Too complex$`));
  });
});
