import { describe, expect, it } from 'vitest';
import { allowedDownloadUrl, downloadHostErrors, downloadRefs, parseDownloadHosts } from './downloads.ts';

describe('outside download links', () => {
  it('parses the allow-list and names entries that are not host names', () => {
    expect(parseDownloadHosts('')).toEqual({ hosts: [], invalid: [] });
    expect(parseDownloadHosts('A.example.com, a.example.com,b.example.org')).toEqual({
      hosts: ['a.example.com', 'b.example.org'],
      invalid: [],
    });
    expect(parseDownloadHosts('https://a.example.com,*.b.org').invalid).toEqual(['https://a.example.com', '*.b.org']);
  });

  it('allows a listed host only, as the URL a browser would follow', () => {
    const hosts = ['files.example.com'];
    expect(allowedDownloadUrl('https://files.example.com/a b.zip', hosts)).toBe('https://files.example.com/a%20b.zip');
    expect(allowedDownloadUrl('https://FILES.EXAMPLE.COM/kit.zip', hosts)).toBe('https://files.example.com/kit.zip');
    for (const ref of [
      'https://evil.example/kit.zip',
      'https://files.example.com@evil.example/',
      'https://files.example.com:pw@files.example.com/',
      'https://evil.example\\@files.example.com/',
      'http://files.example.com/kit.zip',
      'downloads/kit.zip',
    ])
      expect(allowedDownloadUrl(ref, hosts), ref).toBeUndefined();
  });

  it('finds every download reference of an item, and names the refused ones by field', () => {
    const course = {
      sections: [
        { lessons: [{ downloadables: [{ name: 'a', url: 'downloads/a.pdf' }] }] },
        {
          lessons: [
            {},
            {
              downloadables: [
                { name: 'b', url: 'https://evil.example/b.pdf' },
                { name: 'c', url: 'https://ok.example/c.pdf' },
              ],
            },
          ],
        },
      ],
    };
    expect(downloadRefs(course).map((r) => r.path)).toEqual([
      'sections.0.lessons.0.downloadables.0.url',
      'sections.1.lessons.1.downloadables.0.url',
      'sections.1.lessons.1.downloadables.1.url',
    ]);
    expect(Object.keys(downloadHostErrors(course, ['ok.example']))).toEqual(['sections.1.lessons.1.downloadables.0.url']);
    expect(downloadHostErrors({ downloadUrl: 'https://evil.example/kit.zip' }, [])).toEqual({
      downloadUrl: [expect.stringContaining('Downloads from evil.example are not allowed')],
    });
    expect(downloadHostErrors({ downloadUrl: 'downloads/kit.zip' }, [])).toEqual({});
    expect(downloadHostErrors(null, [])).toEqual({});
  });
});
