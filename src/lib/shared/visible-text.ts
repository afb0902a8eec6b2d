/**
 * Characters that change how the text around them reads without showing themselves: bidirectional
 * embeddings, overrides, isolates and marks (U+202E makes "gpj.exe" read "exe.jpg", or a name read
 * backwards), zero-width spaces, the word joiner and the BOM. What members write for others to read
 * (community titles, posts and reports, support subjects and messages, display names) loses them on
 * write, rather than being refused: they come along with pasted text. The server strips them
 * (functions/platform/http/request.ts `visibleText`); forms use the same rule to tell that a field
 * holding only these is empty. The zero-width joiner and non-joiner stay (emoji sequences and several
 * scripts need them), and right-to-left text reads right without any of these (the bidirectional
 * algorithm needs no marks).
 */
export const INVISIBLE = /[\u061c\u200b\u200e\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/g;

/** `text` without INVISIBLE characters. */
export const withoutInvisible = (text: string): string => text.replace(INVISIBLE, '');
