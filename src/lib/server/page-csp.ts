/**
 * The part of every page's Content-Security-Policy that only a header can carry (a <meta> policy
 * ignores frame-ancestors). Prebuilt pages get it as its own header next to Astro's hashed
 * script/style <meta>; on-demand pages, where Astro sends its policy as a header, get it appended to
 * Astro's (src/middleware.ts), so neither replaces the other.
 */
export const PAGE_CSP = "frame-ancestors 'none'; base-uri 'self'; object-src 'none'; form-action 'self'";

/** Astro's policy with ours appended (directives Astro already set are left as they are). */
export function withPageCsp(astroPolicy: string | null): string {
  if (!astroPolicy) return PAGE_CSP;
  const present = new Set(astroPolicy.split(';').map((d) => d.trim().split(/\s+/)[0]?.toLowerCase()));
  const ours = PAGE_CSP.split(';')
    .map((d) => d.trim())
    .filter((d) => !present.has(d.split(/\s+/)[0]!.toLowerCase()));
  return [astroPolicy.trim().replace(/;+$/, ''), ...ours].join('; ');
}
