/**
 * The Create Content form's rules (spec points 2 "Create Content", 3 "Content draft" and "Submitted
 * payload", 5 and 8), pure so they are tested without a browser. This module is what the islands
 * import; the rules sit in create-form/, one job each: draft.ts (what the form holds: empty, from
 * an item being edited, from an AI draft), payload.ts (what it sends: tags, media types, each
 * type's own fields) and errors.ts (the payload checked with the content registry's own input
 * schema, the server's). The tabs, the toasts' texts and where a created item leads are here.
 */
import { CONTENT_REGISTRY, CONTENT_TYPE_INFO, CONTENT_TYPES, type ContentType } from './content/registry.ts';

export {
  draftFromInput,
  EMPTY_DRAFT,
  newDraft,
  takesBody,
  withGenerated,
  type ContentDraft,
  type SectionDraft,
} from './create-form/draft.ts';
export { buildPayload, changePayload, mediaTypeOf, parseTags } from './create-form/payload.ts';
export { draftErrors, standingErrors } from './create-form/errors.ts';

/** The form's tabs, one per type in the registry's order, named as the type's definition names it. */
export const CREATE_TABS: { type: ContentType; label: string }[] = CONTENT_TYPES.map((type) => ({
  type,
  label: CONTENT_REGISTRY[type].labels.name,
}));

const noun = (type: ContentType) => CONTENT_REGISTRY[type].labels.singular;
const capitalised = (text: string) => `${text[0]!.toUpperCase()}${text.slice(1)}`;

/** The success toast (spec point 8). */
export function createdToast(type: ContentType, title: string): { title: string; description: string } {
  return { title: `${capitalised(noun(type))} created`, description: `"${title}" has been created successfully.` };
}

/** The toast after saving changes to an existing item (beyond the spec, worded like its create toast). */
export function updatedToast(type: ContentType, title: string): { title: string; description: string } {
  return { title: `${capitalised(noun(type))} updated`, description: `"${title}" has been updated successfully.` };
}

/** The failure toast's text (spec point 8). */
export function createFailedText(type: ContentType): string {
  return `Failed to create ${noun(type)}. Please try again.`;
}

/** Where a created item sends the creator: the type's list. */
export function listRoute(type: ContentType): string {
  return CONTENT_TYPE_INFO[type].path;
}
