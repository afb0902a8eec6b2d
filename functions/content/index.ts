/**
 * The content domain's front door: the one module other domains import from it (lint refuses a
 * path into its other files). The composition root (functions/*.ts) builds it from its files.
 */
// The front door (issue 37): what other domains import from this one.
export { splitPreview } from './body.ts';
export type { RenderBody } from './body.ts';
export type { PublicContentCache } from './cache.ts';
export { assertAccess } from './gated/service.ts';
export type { GatedContent } from './gated/service.ts';
export type { ProgressService } from './progress/service.ts';
export { slugify } from './rows.ts';
export type { ContentSearch } from './search/service.ts';
export type { ContentChange, ContentService } from './service.ts';
