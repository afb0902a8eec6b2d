/**
 * `redirect_to` of the auth API, checked as Supabase Auth does: our own origin (any port on a
 * loopback host) or a pattern of the allow-list (`*` within one segment, `**` anything, `?` one
 * character). Anything else silently becomes the site URL, never an error. Same-origin targets go
 * through the site's one redirect rule (src/lib/shared/redirect.ts), so they cannot leave the site.
 */
import { localPath } from '#shared/redirect.ts';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

function globToRegExp(pattern: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '*' && pattern[i + 1] === '*') {
      re += '.*';
      i++;
    } else if (ch === '*') re += '[^./]*';
    else if (ch === '?') re += '[^./]';
    else re += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

export function createRedirectCheck(siteUrl: string, patterns: readonly string[]) {
  const site = new URL(siteUrl);
  const allowed = patterns.map(globToRegExp);
  return function allowedRedirect(raw: string | undefined): string {
    if (!raw) return siteUrl;
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return siteUrl;
    }
    if (url.username || url.password || !/^https?:$/.test(url.protocol)) return siteUrl;
    const sameSite =
      url.protocol === site.protocol &&
      url.hostname === site.hostname &&
      (url.port === site.port || (LOOPBACK.has(url.hostname) && LOOPBACK.has(site.hostname)));
    if (sameSite) {
      const path = localPath(`${url.pathname}${url.search}`);
      return path ? `${url.origin}${path}` : siteUrl;
    }
    const withoutFragment = raw.split('#')[0]!;
    return allowed.some((re) => re.test(withoutFragment)) ? withoutFragment : siteUrl;
  };
}
