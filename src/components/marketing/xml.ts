/** Escapes text for XML element content and attribute values. */
export function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);
}

/** RFC 822 date for RSS from a YYYY-MM-DD date (midnight UTC, so no time zone moves the day). */
export function rfc822(date: string): string {
  return new Date(`${date}T00:00:00Z`).toUTCString();
}
