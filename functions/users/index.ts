/**
 * The users domain's front door: the one module other domains import from it (lint refuses a
 * path into its other files). The composition root (functions/*.ts) builds it from its files.
 */
// The front door (issue 37): what other domains import from this one.
export { memberAccess } from './access-level.ts';
export { memberDirectory } from './directory.ts';
export { memberFeedLinks } from './feed-links.ts';
export type { Guards } from './guards.ts';
export { keyViewer, requireViewer } from './identity.ts';
export { memberImports } from './imports.ts';
export type { ImportedProfile, NewMemberRow } from './imports.ts';
export { newsletterReaders } from './newsletter-readers.ts';
export type { DataSubject, PersonalDataSource } from './personal-data.ts';
export type { UserService, Viewer } from './service.ts';
export type { Language, ProfileRow } from './tables.ts';
