/**
 * The part of every page's Content-Security-Policy that only a header can carry (a <meta> policy
 * ignores frame-ancestors), and where pages may show images from. Prebuilt pages get it as its own
 * header next to Astro's hashed script/style <meta>; on-demand pages, where Astro sends its policy as
 * a header, get it appended to Astro's (src/middleware.ts), so neither replaces the other.
 *
 * Images come from our origin and the hosts the server is configured with (the public media host,
 * S3_PUBLIC_URL; Stripe's with its embedded Checkout), never from anywhere a staff body or a media
 * item names: the server builds the header at start-up (`pagePolicy`) and hands it to the
 * middleware through the request's locals.
 */
const HEADER_ONLY = "frame-ancestors 'none'; base-uri 'self'; object-src 'none'; form-action 'self'";

/** The header policy of pages: images from our origin and `imageSources` (origins such as https://media.example.com). */
export function pagePolicy(imageSources: readonly string[] = []): string {
  return `${HEADER_ONLY}; img-src ${["'self'", ...imageSources].join(' ')}`;
}

/** The policy with no image host configured (our origin only). */
export const PAGE_CSP = pagePolicy();

/** Astro's policy with ours appended (directives Astro already set are left as they are). */
export function withPageCsp(astroPolicy: string | null, ours = PAGE_CSP): string {
  if (!astroPolicy) return ours;
  const present = new Set(astroPolicy.split(';').map((d) => d.trim().split(/\s+/)[0]?.toLowerCase()));
  const added = ours
    .split(';')
    .map((d) => d.trim())
    .filter((d) => !present.has(d.split(/\s+/)[0]!.toLowerCase()));
  return [astroPolicy.trim().replace(/;+$/, ''), ...added].join('; ');
}
