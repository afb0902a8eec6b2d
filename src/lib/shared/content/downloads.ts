/**
 * Outside download links: a download reference (tool and market `downloadUrl`, course lesson
 * downloadables) is a key into the protected files folder or an https URL, and an https URL may only
 * name a host on the allow-list (the server's DOWNLOAD_HOSTS; none by default). The creator API
 * refuses others when an item is written, and the signed-link route refuses them when a link is
 * opened, so a link signed before the list changed cannot send anyone elsewhere. Pure module: the
 * list is passed in.
 */

/** A host name (no scheme, port, path or wildcard), compared lower-case. */
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** The allow-list from its comma-separated form; `invalid` lists entries that are not host names. */
export function parseDownloadHosts(value: string): { hosts: string[]; invalid: string[] } {
  const entries = value
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  return { hosts: [...new Set(entries.filter((h) => HOST_NAME.test(h)))], invalid: entries.filter((h) => !HOST_NAME.test(h)) };
}

/** An outside download URL, parsed as a browser would follow it; undefined for file keys and anything but https. */
export function outsideDownload(ref: string): URL | undefined {
  if (!ref.startsWith('https://')) return undefined;
  try {
    const url = new URL(ref);
    return url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where an outside download may go: the URL itself (normalised, no credentials) when its host is on
 * the list, else undefined. File keys are not outside downloads (undefined too: check with
 * `outsideDownload` first).
 */
export function allowedDownloadUrl(ref: string, hosts: readonly string[]): string | undefined {
  const url = outsideDownload(ref);
  if (!url || url.username || url.password || !hosts.includes(url.hostname.toLowerCase())) return undefined;
  return url.href;
}

/** The message for an https download link whose host is not on the list (or that is no URL at all). */
export function downloadHostMessage(ref: string): string {
  const host = outsideDownload(ref)?.hostname;
  return host
    ? `Downloads from ${host} are not allowed: upload the file to the protected area, or ask an admin to add ${host} to DOWNLOAD_HOSTS`
    : 'Use a private file key such as downloads/kit.zip or a valid https:// URL';
}

type Loose = Record<string, unknown>;
const isObject = (v: unknown): v is Loose => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/**
 * The download references of an item's fields, each with its dotted path as field errors name it:
 * `downloadUrl`, and `sections.{i}.lessons.{j}.downloadables.{k}.url`.
 */
export function downloadRefs(fields: unknown): { path: string; ref: string }[] {
  if (!isObject(fields)) return [];
  const refs: { path: string; ref: string }[] = [];
  if (typeof fields.downloadUrl === 'string') refs.push({ path: 'downloadUrl', ref: fields.downloadUrl });
  list(fields.sections).forEach((section, i) =>
    list(isObject(section) ? section.lessons : undefined).forEach((lesson, j) =>
      list(isObject(lesson) ? lesson.downloadables : undefined).forEach((file, k) => {
        if (isObject(file) && typeof file.url === 'string')
          refs.push({ path: `sections.${i}.lessons.${j}.downloadables.${k}.url`, ref: file.url });
      }),
    ),
  );
  return refs;
}

/** Field errors for every outside download whose host is not on the list; empty when all may be used. */
export function downloadHostErrors(fields: unknown, hosts: readonly string[]): Record<string, string[]> {
  const refused = downloadRefs(fields).filter(({ ref }) => ref.startsWith('https://') && !allowedDownloadUrl(ref, hosts));
  return Object.fromEntries(refused.map(({ path, ref }) => [path, [downloadHostMessage(ref)]]));
}
