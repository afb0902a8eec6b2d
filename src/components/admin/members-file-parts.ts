/**
 * A members file cut into parts the API takes one request each (issue 35): a serverless host takes
 * at most 6 MB a request (Netlify's functions), so the Users tab sends a file in parts of at most
 * PART_BYTES, each with the header line, cut only between records (never inside a quoted cell), and
 * numbers each part's rows back into the whole file's. Works on bytes: a line feed or a quote never
 * occurs inside a UTF-8 character, and the server checks the encoding.
 */

/** The largest part sent in one request (under a serverless host's 6 MB, with room for the request). */
export const PART_BYTES = 4 * 1024 * 1024;

export interface FilePart {
  bytes: Uint8Array;
  /** Records of the file before this part's first one: add it to a part's row numbers for the file's. */
  offset: number;
}

const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;

/** Where each record ends (the index after its line feed, or the file's end), skipping blank lines as the server does. */
function recordEnds(bytes: Uint8Array): { end: number; blank: boolean }[] {
  const ends: { end: number; blank: boolean }[] = [];
  let quoted = false;
  let blank = true;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === QUOTE) quoted = !quoted;
    if (b === LF && !quoted) {
      ends.push({ end: i + 1, blank });
      blank = true;
    } else if (b !== CR) blank = false;
  }
  if (!blank || (ends.length === 0 && bytes.length)) ends.push({ end: bytes.length, blank });
  return ends;
}

/** The file as parts of at most `max` bytes (a record longer than that goes alone: the server refuses it). */
export function fileParts(bytes: Uint8Array, max = PART_BYTES): FilePart[] {
  if (bytes.length <= max) return [{ bytes, offset: 0 }];
  const ends = recordEnds(bytes);
  const headerEnd = ends[0]?.end ?? bytes.length;
  const header = bytes.subarray(0, headerEnd);
  const parts: FilePart[] = [];
  let start = headerEnd;
  let records = 0;
  let offset = 0;
  for (let i = 1; i < ends.length; i++) {
    const { end, blank } = ends[i]!;
    if (end - start + header.length > max && end > ends[i - 1]!.end && records > 0) {
      parts.push(part(header, bytes.subarray(start, ends[i - 1]!.end), offset));
      offset += records;
      records = 0;
      start = ends[i - 1]!.end;
    }
    if (!blank) records += 1;
  }
  if (start < bytes.length || parts.length === 0) parts.push(part(header, bytes.subarray(start), offset));
  return parts;
}

function part(header: Uint8Array, body: Uint8Array, offset: number): FilePart {
  const out = new Uint8Array(header.length + body.length);
  out.set(header);
  out.set(body, header.length);
  return { bytes: out, offset };
}
