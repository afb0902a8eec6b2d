/**
 * Home's latest posts as of now. The page may be a file the CDN serves from the build (on Netlify) or
 * a render a cache keeps within the staleness bound, so once it is shown the latest articles are asked
 * of the public API (always revalidated, as the lists ask) and the cards are rewritten where they
 * differ: an article written, edited or removed at run time shows without a rebuild. Without
 * JavaScript, or when the API cannot be read, the cards stay as rendered. Browser only.
 */
import type { PublicBlog } from '#shared/content/registry.ts';
import { formatDate } from '#shared/format.ts';
import { publicApi } from '../../lib/browser/api.ts';

const SHOWN = 3;

/** One card's fields from an article (the markup's data-post-* hooks, HomeTeasers.astro). */
function fill(card: HTMLElement, post: PublicBlog): void {
  const date = card.querySelector<HTMLTimeElement>('[data-post-date]');
  const link = card.querySelector<HTMLAnchorElement>('[data-post-link]');
  if (date) {
    date.dateTime = post.publishedDate;
    date.textContent = formatDate(post.publishedDate);
  }
  if (link) {
    link.href = `/blog/${post.slug}`;
    link.textContent = post.title;
  }
  for (const [hook, text] of [
    ['[data-post-description]', post.description],
    ['[data-post-author]', post.author],
  ] as const) {
    const element = card.querySelector(hook);
    if (element) element.textContent = text;
  }
}

/** What a card shows, to compare the rendered cards with the API's articles. */
const shownKey = (card: Element) =>
  ['[data-post-date]', '[data-post-link]', '[data-post-description]', '[data-post-author]']
    .map((hook) => card.querySelector(hook)?.textContent?.trim() ?? '')
    .join('\u0000') + (card.querySelector('[data-post-link]')?.getAttribute('href') ?? '');

export async function refreshLatestPosts(section: HTMLElement | null): Promise<void> {
  const list = section?.querySelector('ul');
  const template = list?.querySelector('li');
  if (!section || !list || !template) return;
  let posts: PublicBlog[];
  try {
    const res = await publicApi.content[':segment'].$get({ param: { segment: 'blogs' } }, { init: { cache: 'no-cache' } });
    if (!res.ok) return;
    posts = ((await res.json()) as PublicBlog[]).slice(0, SHOWN);
  } catch {
    return;
  }
  const cards = posts.map((post) => {
    const card = template.cloneNode(true) as HTMLElement;
    fill(card, post);
    return card;
  });
  const before = [...list.children].map(shownKey).join('\n');
  if (cards.map(shownKey).join('\n') === before) return;
  list.replaceChildren(...cards);
  section.hidden = cards.length === 0;
}
