/**
 * The search bench's articles: deterministic (a seeded generator), each a few hundred words of
 * Markdown (headings, emphasis, links, lists) cut from the sample content's own prose, so words come
 * with English frequencies; a third at each level. A few carry the rare word, none the missing one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ACCESS_LEVELS } from '#shared/access.ts';

/** In 5 articles out of 10,000: the rare word. */
export const RARE_WORD = 'quillibrant';
/** In no article. */
export const MISSING_WORD = 'zorblaxian';

function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every word of the sample articles' and courses' prose, in order. */
function corpus(): string[] {
  const root = path.resolve(import.meta.dirname, '../../content');
  const text = ['blog', 'courses']
    .flatMap((dir) => readdirSync(path.join(root, dir)).map((f) => readFileSync(path.join(root, dir, f), 'utf8')))
    .join('\n')
    .replace(/^---[\s\S]*?---/gm, ' ')
    .replace(/[#*_`>|{}[\]()]/g, ' ');
  return text.split(/\s+/).filter((w) => /^[A-Za-z][A-Za-z'’,.;:-]*$/.test(w) && !w.includes('SENTINEL'));
}

/** `count` rows for `content_items`: blog articles of 250 to 650 words. */
export function generatedArticles(count: number) {
  const words = corpus();
  const next = random(36);
  const sentence = (n: number) => {
    const at = Math.floor(next() * (words.length - n));
    return words.slice(at, at + n).join(' ');
  };
  return Array.from({ length: count }, (_, i) => {
    const paragraphs: string[] = [];
    const target = 250 + Math.floor(next() * 400);
    for (let n = 0; n < target;) {
      const length = 30 + Math.floor(next() * 50);
      paragraphs.push(next() < 0.2 ? `## ${sentence(5)}` : next() < 0.2 ? `- ${sentence(12)}\n- **${sentence(8)}**` : sentence(length));
      if (next() < 0.15) paragraphs.push(`See [${sentence(3)}](https://example.com/guide/${i}) for more.`);
      n += length;
    }
    if (i % 2000 === 17) paragraphs.splice(2, 0, `A note on the ${RARE_WORD} method.`);
    paragraphs.splice(1, 0, '<!-- preview -->');
    const title = `${sentence(6)} ${i}`.replace(/[,.;:]/g, '');
    return {
      type: 'blog' as const,
      slug: `bench-search-${i}`,
      title,
      description: sentence(20),
      accessLevel: ACCESS_LEVELS[i % 3]!,
      details: { publishedDate: '2026-01-01', content: paragraphs.join('\n\n'), contentFormat: 'markdown' },
    };
  });
}
