import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { fileParts, memberCount } from './members-file-parts.ts';

const encode = (s: string) => new TextEncoder().encode(s);
const decode = (b: Uint8Array) => new TextDecoder().decode(b);
const rows = (s: string) => parse(s, { skip_empty_lines: true, bom: true }) as string[][];

describe('members file parts', () => {
  it('keeps a small file whole', () => {
    const bytes = encode('email\na@x.test\n');
    expect(fileParts(bytes, 100)).toEqual([{ bytes, offset: 0 }]);
  });

  it('cuts between records only, repeats the header, and numbers rows back into the file', () => {
    const lines = Array.from({ length: 50 }, (_, i) => `m${i}@x.test,"Name, ${i}\nstill the cell",é`);
    const text = `\ufeffemail,name,labels\r\n${lines.join('\r\n')}\r\n\r\n`;
    const parts = fileParts(encode(text), 300);
    expect(parts.length).toBeGreaterThan(3);
    const whole = rows(text).slice(1);
    const rebuilt: string[][] = [];
    for (const p of parts) {
      expect(p.bytes.length).toBeLessThanOrEqual(300);
      const [header, ...body] = rows(decode(p.bytes));
      expect(header).toEqual(['email', 'name', 'labels']);
      // A part's row r (the header is 1) is the file's row r + offset.
      body.forEach((cells, i) => expect(whole[i + 2 + p.offset - 2]).toEqual(cells));
      rebuilt.push(...body);
    }
    expect(rebuilt).toEqual(whole);
  });

  it('takes the first record that is not blank as the header, and cuts a file of carriage returns too', () => {
    const text = `\n\nemail,name\n${Array.from({ length: 20 }, (_, i) => `m${i}@x.test,N${i}`).join('\n')}\n`;
    const parts = fileParts(encode(text), 80);
    expect(parts.length).toBeGreaterThan(2);
    const whole = rows(text).slice(1);
    for (const p of parts) {
      const [header, ...body] = rows(decode(p.bytes));
      expect(header).toEqual(['email', 'name']);
      body.forEach((cells, i) => expect(whole[p.offset + i]).toEqual(cells));
    }
    expect(parts.reduce((n, p) => n + rows(decode(p.bytes)).length - 1, 0)).toBe(20);
    const cr = `email,name\r${Array.from({ length: 20 }, (_, i) => `m${i}@x.test,N${i}`).join('\r')}`;
    const crParts = fileParts(encode(cr), 80);
    expect(crParts.length).toBeGreaterThan(2);
    for (const p of crParts) expect(p.bytes.length).toBeLessThanOrEqual(80);
    expect(memberCount(encode(cr))).toBe(20);
    expect(memberCount(encode(text))).toBe(20);
  });

  it('sends a record longer than a part alone (the server refuses it, with its row)', () => {
    const text = `email,name\na@x.test,${'x'.repeat(500)}\nb@x.test,B\n`;
    const parts = fileParts(encode(text), 200);
    expect(parts.map((p) => [rows(decode(p.bytes)).length - 1, p.offset])).toEqual([
      [1, 0],
      [1, 1],
    ]);
  });
});
