import { describe, expect, it } from 'vitest';
import { FileRefSchema, PublicUrlSchema, SlugSchema, toDateOnly } from './schema.ts';

describe('SlugSchema', () => {
  it.each(['seo', 'seo-audit-checklist', 'top-10-tips', '2026'])('accepts %j', (slug) => {
    expect(SlugSchema.safeParse(slug).success).toBe(true);
  });

  it.each(['SEO-Audit', 'seo audit', '-seo', 'seo-', 'seo--audit', 'seo_audit', '', 'caf\u00e9'])('rejects %j', (slug) => {
    expect(SlugSchema.safeParse(slug).success).toBe(false);
  });
});

describe('PublicUrlSchema', () => {
  // Browsers read a backslash as a slash and drop tabs and newlines in URLs, so these two resolve to
  // https://evil.example/... although they start with a single "/".
  it('rejects "/\\" which browsers treat as protocol-relative', () => {
    expect(PublicUrlSchema.safeParse('/\\evil.example/x.jpg').success).toBe(false);
  });

  it('rejects "/<tab>/" which browsers treat as protocol-relative', () => {
    expect(PublicUrlSchema.safeParse('/\t/evil.example/x.jpg').success).toBe(false);
  });
});

describe('FileRefSchema', () => {
  it.each(['downloads/kit.zip', 'kit.zip', 'downloads/sub/Workbook_v2.pdf', 'https://files.example.com/kit.zip'])('accepts %j', (ref) => {
    expect(FileRefSchema.safeParse(ref).success).toBe(true);
  });

  it.each(['../secret', 'downloads/../secret', '/abs/path', 'http://x', 'javascript:alert(1)', 'C:\\secret', '.env', ''])(
    'rejects %j',
    (ref) => {
      expect(FileRefSchema.safeParse(ref).success).toBe(false);
    },
  );
});

describe('toDateOnly', () => {
  it('writes the UTC calendar day as YYYY-MM-DD', () => {
    expect(toDateOnly(new Date(Date.UTC(2026, 2, 4)))).toBe('2026-03-04');
    expect(toDateOnly(new Date('2026-03-04'))).toBe('2026-03-04');
  });

  it('uses the UTC day for a time late in a western time zone', () => {
    expect(toDateOnly(new Date('2026-03-14T23:30:00-05:00'))).toBe('2026-03-15');
  });

  it('pads months and days', () => {
    expect(toDateOnly(new Date(Date.UTC(2026, 0, 9, 12)))).toBe('2026-01-09');
  });
});
