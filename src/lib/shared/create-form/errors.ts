/**
 * The Create Content form's field errors (spec point 5): the payload checked with the content
 * registry's own input schema (the server's), and which errors still stand as the draft changes.
 */
import { CONTENT_REGISTRY, type ContentType } from '../content/registry.ts';
import type { ContentDraft } from './draft.ts';
import { buildPayload } from './payload.ts';

/** Field → first problem, checked with the server's own schema; empty when the payload is valid. */
export function draftErrors(type: ContentType, payload: Record<string, unknown>): Record<string, string> {
  const parsed = CONTENT_REGISTRY[type].input.safeParse(payload);
  if (parsed.success) return {};
  const errors = new Map<string, string>();
  for (const issue of parsed.error.issues) {
    const key = issue.path.join('.') || '_';
    if (!errors.has(key)) errors.set(key, issue.message);
  }
  return Object.fromEntries(errors);
}

/**
 * The errors that still stand once the draft has changed since they were found (`checked`): a
 * field's error goes as soon as the field passes the schema again, and shows the schema's current
 * message while it still fails. An error the schema cannot see (the server's: a slug taken, a host
 * not allowed) stays until its field changes. No new errors appear here: those wait for the next
 * submit, so nobody is scolded for a field they have not reached yet.
 */
export function standingErrors(
  type: ContentType,
  errors: Record<string, string>,
  checked: ContentDraft,
  current: ContentDraft,
): Record<string, string> {
  const keys = Object.keys(errors);
  if (keys.length === 0 || checked === current) return errors;
  const before = buildPayload(type, checked);
  const after = buildPayload(type, current);
  const fresh = new Map(Object.entries(draftErrors(type, after)));
  const standing = new Map<string, string>();
  for (const key of keys) {
    const field = key.split('.')[0]!;
    const changed = JSON.stringify(before[field]) !== JSON.stringify(after[field]);
    const now = fresh.get(key);
    if (now !== undefined) standing.set(key, changed ? now : errors[key]!);
    else if (!changed) standing.set(key, errors[key]!);
  }
  return Object.fromEntries(standing);
}
