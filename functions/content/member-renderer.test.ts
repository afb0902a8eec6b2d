import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../platform/errors.ts';
import { createMemberRenderer, type MemberRenderer } from './member-renderer.ts';
import { BodyRenderError } from './render.ts';

/** Emphasis the schema's count misses (inside an HTML comment block it takes for code): seconds to parse. */
const SLOW = `<!--\n\n\`\`\`\n\n-->\n${'*a '.repeat(3000)}x${' a*'.repeat(3000)}\n\`\`\`\n`;

describe('the members’ renderer thread', () => {
  let renderer: MemberRenderer | undefined;
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
    renderer = createMemberRenderer({ maxWaiting: 1 });
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
