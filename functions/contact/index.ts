/**
 * The contact domain's front door: the one module other domains import from it (lint refuses a
 * path into its other files). The composition root (functions/*.ts) builds it from its files.
 */
// The front door (issue 37): what other domains import from this one.
export type { ContactService } from './service.ts';
