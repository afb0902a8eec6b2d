import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../tests/support/temp.ts';
import { createLocalStorage } from '../platform/storage/local.ts';
import { attachmentDisposition, cleanFileName, createAttachments, nameForType } from './attachments.ts';

describe('attachment names', () => {
  it('keeps a name whose extension names the sniffed type, and adds the type to any other', () => {
    expect(nameForType('photo.jpeg', 'image/jpeg')).toBe('photo.jpeg');
    expect(nameForType('photo.JPG', 'image/jpeg')).toBe('photo.JPG');
    expect(nameForType('clip.mov', 'video/quicktime')).toBe('clip.mov');
    expect(nameForType('invoice.html', 'image/gif')).toBe('invoice.html.gif');
    expect(nameForType('fdp.exe', 'application/pdf')).toBe('fdp.exe.pdf');
    expect(nameForType('report', 'application/pdf')).toBe('report.pdf');
  });

  it('cleans paths, controls and invisible characters, and cuts long names on whole characters, keeping the extension', () => {
    expect(cleanFileName('../../etc/in\u202Evoice\u200b.pdf', 'application/pdf')).toBe('invoice.pdf');
    expect(cleanFileName('C:\\Users\\me\\shot.png', 'image/png')).toBe('shot.png');
    expect(cleanFileName('\u00ad\u3164\u115f', 'image/png')).toBe('attachment.png');
    expect(cleanFileName(undefined, 'video/mp4')).toBe('attachment.mp4');
    const long = cleanFileName(`${'a'.repeat(200)}.pdf`, 'application/pdf');
    expect([...long]).toHaveLength(120);
    expect(long.endsWith('.pdf')).toBe(true);
    const emoji = cleanFileName('😀'.repeat(130), 'image/png');
    expect(emoji).not.toContain('\ufffd');
    expect(emoji.endsWith('😀.png')).toBe(true);
  });

  it("offers an ASCII name and the UTF-8 one with RFC 8187's characters only", () => {
    expect(attachmentDisposition("O'Brien (1)*.pdf")).toBe(
      `attachment; filename="O_Brien__1__.pdf"; filename*=UTF-8''O%27Brien%20%281%29%2A.pdf`,
    );
    expect(attachmentDisposition('résumé.pdf')).toBe(`attachment; filename="r_sum_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`);
  });
});

describe('removing attachments', () => {
  it('removes every one it can, and then says which could not be removed', async () => {
    const dir = await tempDir('attachments-remove');
    const storage = createLocalStorage({ dir });
    const attachments = createAttachments({ storage, maxBytes: 1024 });
    // The first key's file is a folder with something in it: deleting it fails.
    await mkdir(path.join(dir, 'stuck.png'));
    await writeFile(path.join(dir, 'stuck.png', 'inside'), 'x');
    await storage.put(Readable.from([Buffer.from('png')]), { key: 'good.png', contentType: 'image/png' });
    await expect(attachments.remove(['stuck.png', 'good.png'])).rejects.toThrow('1 of 2 attachments could not be removed');
    expect(await storage.stat('good.png')).toBeUndefined();
  });
});
