/**
 * The one rule for redirect targets, shared by the server (trailing-slash redirects, redirect_to of
 * auth links) and the browser (the page to return to after sign-in). A target must be a path on our
 * own origin, and browsers are generous readers: they treat "\" like "/" and drop tabs and line
 * breaks, so "/\evil.example", "/%5cevil.example" (when decoded) and "/<TAB>/evil.example" all read
 * as "//evil.example", another host. Targets are therefore kept in their raw, percent-encoded form
 * (never decoded and re-encoded) and refused outright when they hold a backslash, whitespace or a
 * control character, raw or percent-encoded, in the path. Pure module: no Node or browser APIs.
 */

/** Printable ASCII only: Location headers carry bytes, and browsers encode everything else. */
const PRINTABLE = /^[\u0021-\u007e]+$/;
/** Percent-encoded control characters, DEL and backslash. */
const ENCODED_UNSAFE = /%(?:[01][0-9a-f]|7f|5c)/i;
const MAX_LENGTH = 2048;
const PROBE_ORIGIN = 'http://origin.invalid';

function splitPath(target: string): [path: string, rest: string] {
  const cut = target.search(/[?#]/);
  return cut === -1 ? [target, ''] : [target.slice(0, cut), target.slice(cut)];
}

/** Whether a raw request path (before the query) is safe to route and to redirect to. */
export function isSafePath(rawPath: string): boolean {
  return PRINTABLE.test(rawPath) && !rawPath.includes('\\') && !ENCODED_UNSAFE.test(rawPath);
}

/**
 * `target` when it is a same-origin path ("/account?tab=profile"), else undefined. Anything that
 * is not a plain local path (absolute URLs, protocol-relative forms, unsafe characters) is refused
 * rather than repaired.
 */
export function localPath(target: unknown): string | undefined {
  if (typeof target !== 'string' || target.length === 0 || target.length > MAX_LENGTH) return undefined;
  if (target[0] !== '/' || target[1] === '/' || !PRINTABLE.test(target) || target.includes('\\')) return undefined;
  const [path] = splitPath(target);
  if (ENCODED_UNSAFE.test(path)) return undefined;
  // Belt and braces: the WHATWG URL parser (the one browsers use) must keep it on our origin.
  try {
    if (new URL(target, PROBE_ORIGIN).origin !== PROBE_ORIGIN) return undefined;
  } catch {
    return undefined;
  }
  return target;
}

/** A target when it is local, else the fallback (e.g. "/" after sign-in). */
export function localPathOr(target: unknown, fallback: string): string {
  return localPath(target) ?? fallback;
}

/**
 * The canonical form of a raw request URL with trailing slashes ("/blog/?q=x" becomes "/blog?q=x",
 * "//blog//" becomes "/blog"), or undefined when the path is not safe to redirect to.
 */
export function withoutTrailingSlash(rawUrl: string): string | undefined {
  const [path, rest] = splitPath(rawUrl);
  return localPath(`/${path.replace(/^\/+|\/+$/g, '')}${rest}`);
}
