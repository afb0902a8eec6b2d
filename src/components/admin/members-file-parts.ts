/**
 * A members file cut into parts the API takes one request each (issue 35): a serverless host takes
 * at most 6 MB a request (Netlify's functions), so the Users tab sends a file in parts of at most
 * PART_BYTES, each with the header record, cut only between records (never inside a quoted cell), and
 * numbers each part's rows back into the whole file's. Works on bytes: a line feed, a carriage return
 * or a quote never occurs inside a UTF-8 character, and the server checks the encoding.
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

interface RecordEnd {
  /** The index after the record's line break (or the file's end). */
  end: number;
  /** Nothing but a line break: the server skips it, and it counts as no row. */
  blank: boolean;
}

/** Where each record ends, outside quotes, at line feeds (or carriage returns in a file that has no line feed, as the server reads it). */
function recordEnds(bytes: Uint8Array): RecordEnd[] {
  const breakByte = bytes.includes(LF) ? LF : CR;
  const ends: RecordEnd[] = [];
  let quoted = false;
  let blank = true;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === QUOTE) quoted = !quoted;
    if (b === breakByte && !quoted) {
      ends.push({ end: i + 1, blank });
      blank = true;
    } else if (b !== CR && b !== LF) blank = false;
  }
  if (!blank) ends.push({ end: bytes.length, blank });
  return ends;
}

/** How many members a file brings (its records less the header), as the server counts them. */
export function memberCount(bytes: Uint8Array): number {
  return Math.max(0, recordEnds(bytes).filter((r) => !r.blank).length - 1);
}

/** The file as parts of at most `max` bytes (a record longer than that goes alone: the server refuses it). */
export function fileParts(bytes: Uint8Array, max = PART_BYTES): FilePart[] {
  if (bytes.length <= max) return [{ bytes, offset: 0 }];
  const ends = recordEnds(bytes);
  const at = ends.findIndex((r) => !r.blank);
  if (at < 0) return [{ bytes, offset: 0 }];
  const header = bytes.subarray(at === 0 ? 0 : ends[at - 1]!.end, ends[at]!.end);
  const parts: FilePart[] = [];
  // The first part starts at the file's start (a byte-order mark, blank lines, the header); the others repeat the header.
  let start = 0;
  let prefix = 0;
  let records = 0;
  let offset = 0;
  for (let i = at + 1; i < ends.length; i++) {
    const { end, blank } = ends[i]!;
    if (end - start + prefix > max && records > 0) {
      const cut = ends[i - 1]!.end;
      parts.push(part(prefix ? header : undefined, bytes.subarray(start, cut), offset));
      offset += records;
      records = 0;
      start = cut;
      prefix = header.length;
    }
    if (!blank) records += 1;
  }
  parts.push(part(prefix ? header : undefined, bytes.subarray(start), offset));
  return parts;
}

function part(header: Uint8Array | undefined, body: Uint8Array, offset: number): FilePart {
  if (!header) return { bytes: body, offset };
  const out = new Uint8Array(header.length + body.length);
  out.set(header);
  out.set(body, header.length);
  return { bytes: out, offset };
}
