/** Content enums without zod, so browser islands can import them cheaply. */
export const CONTENT_TYPES = ['blog', 'tool', 'course', 'market'] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];

export const SKILL_LEVELS = ['beginner', 'intermediate', 'advanced'] as const;
export type SkillLevel = (typeof SKILL_LEVELS)[number];

export const MEDIA_TYPES = ['image', 'video', 'pdf'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];
