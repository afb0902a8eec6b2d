/** The languages the product speaks to members in (their account setting; the mails' copy). */
export const LANGUAGES = ['en', 'es', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];
