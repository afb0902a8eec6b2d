/** Upload fixtures: real file heads that byte sniffing recognises, and multipart bodies built by hand. */
import { randomBytes } from 'node:crypto';

/** A 1x1 PNG. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

/** A PNG head followed by `size` bytes of padding (what a large image looks like to the sniffer). */
export const pngOfSize = (size: number) => Buffer.concat([PNG, randomBytes(Math.max(0, size - PNG.length))]);

export interface Part {
  field: string;
  filename?: string;
  type?: string;
  body: Buffer | string;
}

/** A multipart/form-data body and its content type; file names are written as given (hostile ones too). */
export function multipart(parts: Part[], boundary = `----beacon${randomBytes(8).toString('hex')}`) {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.field}"${part.filename !== undefined ? `; filename="${part.filename}"` : ''}`;
    const head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${part.type ? `Content-Type: ${part.type}\r\n` : ''}\r\n`;
    chunks.push(Buffer.from(head), Buffer.from(part.body), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
