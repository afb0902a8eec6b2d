import { describe, expect, it } from 'vitest';
import { PAGE_CSP, pagePolicy, withPageCsp } from './page-csp.ts';

describe('the pages’ header policy', () => {
  it('shows images from our origin, and from the configured hosts only', () => {
    expect(PAGE_CSP).toContain("img-src 'self'");
    expect(PAGE_CSP).not.toMatch(/img-src[^;]*(https:|data:|\*)/);
    expect(pagePolicy(['https://cdn.example.com'])).toMatch(/; img-src 'self' https:\/\/cdn\.example\.com$/);
    for (const directive of ["frame-ancestors 'none'", "base-uri 'self'", "object-src 'none'", "form-action 'self'"])
      expect(pagePolicy(['https://cdn.example.com'])).toContain(directive);
  });

  it('is appended to Astro’s hashed policy on on-demand pages, the server’s image hosts included', () => {
    const astro = "script-src 'self' 'sha256-abc'; style-src 'self' 'sha256-def'";
    const joined = withPageCsp(astro, pagePolicy(['https://cdn.example.com']));
    expect(joined.startsWith(astro)).toBe(true);
    expect(joined).toContain("img-src 'self' https://cdn.example.com");
    expect(withPageCsp(astro)).toContain("img-src 'self'");
    // A directive Astro set stays Astro's.
    expect(withPageCsp("img-src 'none'", PAGE_CSP).match(/img-src/g)).toHaveLength(1);
    expect(withPageCsp(null, PAGE_CSP)).toBe(PAGE_CSP);
  });
});
