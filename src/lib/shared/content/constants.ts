/**
 * Content enums without zod, so browser islands can import them cheaply. The content types
 * themselves are listed in registry.ts.
 */
export const SKILL_LEVELS = ['beginner', 'intermediate', 'advanced'] as const;
export type SkillLevel = (typeof SKILL_LEVELS)[number];

export const MEDIA_TYPES = ['image', 'video', 'pdf'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];
