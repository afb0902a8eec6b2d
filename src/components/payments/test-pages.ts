/** What the test provider's checkout and portal pages share: the session id from the address, and links kept on our site. */

/** The `?session=` id, when it looks like one. */
export function sessionParam(search: string): string | null {
  const id = new URLSearchParams(search).get('session')?.trim();
  return id && /^[\w-]{1,100}$/.test(id) ? id : null;
}

/** `url` when it is on this site (the server only hands these out), else `fallback`. */
export function sameOriginUrl(url: string, fallback: string): string {
  try {
    return new URL(url, window.location.origin).origin === window.location.origin ? url : fallback;
  } catch {
    return fallback;
  }
}
