import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../platform/errors.ts';
import { createMemberRenderer, createStaffRenderer, type BodyRenderer } from './body-renderer.ts';
import { BodyRenderError } from './body.ts';

/** Emphasis the schema's count misses (inside an HTML comment block it takes for code): seconds to parse. */
const SLOW = `<!--\n\n\`\`\`\n\n-->\n${'*a '.repeat(3000)}x${' a*'.repeat(3000)}\n\`\`\`\n`;

// Each renderer starts a thread that loads the compiler: seconds on a busy machine.
describe('the members’ renderer thread', { timeout: 30_000 }, () => {
  let renderer: BodyRenderer | undefined;
  afterEach(() => renderer?.close());

  it('renders posts off the server’s thread, one after another', async () => {
    renderer = createMemberRenderer();
    const [a, b] = await Promise.all([renderer.render('**Hello** [there](https://example.com)'), renderer.render('Second')]);
    expect(a).toBe('<p><strong>Hello</strong> <a href="https://example.com" rel="nofollow ugc noopener">there</a></p>');
    expect(b).toBe('<p>Second</p>');
  });

  it('refuses a post that takes too long, keeps the server’s thread free meanwhile, and renders the next on a fresh thread', async () => {
    renderer = createMemberRenderer({ timeoutMs: 300 });
    await renderer.render('warm');
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 20);
    const slow = renderer.render(SLOW);
    const after = renderer.render('*still* fine');
    await expect(slow).rejects.toBeInstanceOf(BodyRenderError);
    await expect(slow).rejects.toThrow('too complex');
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(5); // the event loop ran while the slow post was parsed elsewhere
    expect(await after).toBe('<p><em>still</em> fine</p>');
  });

  it('answers the renderer’s own refusals as they are, and 429 past the posts it lets wait', async () => {
    renderer = createMemberRenderer({ maxWaiting: 1, timeoutMs: 20_000 }); // the long post's refusal is the renderer's own, however busy the machine
    await expect(renderer.render(`[x]: https://a.example/${'a'.repeat(2000)}\n\n${'[x] '.repeat(2000)}`)).rejects.toThrow(
      'too long once displayed',
    );
    const first = renderer.render('one');
    const second = renderer.render('two');
    const refused = await renderer.render('three').catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('rate_limited');
    expect(await Promise.all([first, second])).toEqual(['<p>one</p>', '<p>two</p>']);
  });
});

/** Images nested 4,000 deep (24,000 characters): 15.5 s of the server's thread when staff bodies rendered there. */
const NESTED_IMAGES = `${'!['.repeat(4000)}x${'](a)'.repeat(4000)}`;

describe('the staff bodies’ renderer thread', { timeout: 30_000 }, () => {
  let renderer: BodyRenderer | undefined;
  afterEach(() => renderer?.close());

  it('renders Markdown and MDX off the server’s thread, images only from our site and the listed origins', async () => {
    renderer = createStaffRenderer({ imageOrigins: ['https://media.example'] });
    const markdown = '![ours](/uploads/a.png) ![bucket](https://media.example/media/b.png) ![theirs](https://tracker.example/p.gif)';
    const html = await renderer.render(markdown, 'markdown');
    expect(html).toContain('<img src="/uploads/a.png" alt="ours" loading="lazy" />');
    expect(html).toContain('<img src="https://media.example/media/b.png" alt="bucket" loading="lazy" />');
    expect(html).not.toContain('tracker.example');
    expect(html).toContain('theirs');
    expect(await renderer.render('Two is {1 + 1}.', 'mdx')).toBe('<p>Two is 2.</p>');
  });

  it('keeps the server’s thread turning while a pathological body renders, refuses it past its time, and renders the next', async () => {
    renderer = createStaffRenderer({ imageOrigins: [], timeoutMs: 1_000 });
    await renderer.render('warm', 'markdown');
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 20);
    const slow = renderer.render(NESTED_IMAGES, 'markdown');
    const after = renderer.render('*still* fine', 'markdown');
    await expect(slow).rejects.toThrow('This text is too complex to display');
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(5); // the event loop ran while the body was parsed elsewhere
    expect(await after).toBe('<p><em>still</em> fine</p>');
  });
});
