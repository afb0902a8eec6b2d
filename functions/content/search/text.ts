/**
 * Plain text from an article's or lesson's Markdown or MDX, for the search index: what a reader
 * reads, without the syntax around it. Regular expressions only (the render pipeline never loads on
 * the server's thread, see "Rendering"), each with bounded repetition, so a hostile body of
 * thousands of unclosed brackets costs linear time, not quadratic.
 */
import { SNIPPET_MARK_END, SNIPPET_MARK_START } from '#shared/search.ts';

const STEPS: [RegExp, string][] = [
  // The highlighter's markers: only the database's highlighter may put them in a snippet.
  [new RegExp(`[${SNIPPET_MARK_START}${SNIPPET_MARK_END}]`, 'g'), ''],
  // MDX and HTML comments (the preview marker among them).
  [/\{\/\*[\s\S]{0,5000}?\*\/\}/g, ' '],
  [/<!--[\s\S]{0,5000}?-->/g, ' '],
  // Code fence lines (the code itself is text a reader reads).
  [/^[ \t]*(?:`{3,}|~{3,}).*$/gm, ' '],
  // Images keep their alt text, links their text; neither keeps its address.
  [/!\[([^\]\n]{0,500})\]\([^)\n]{0,2000}\)/g, ' $1 '],
  [/\[([^\]\n]{0,500})\]\([^)\n]{0,2000}\)/g, ' $1 '],
  [/\[([^\]\n]{0,500})\]\[[^\]\n]{0,500}\]/g, ' $1 '],
  // Reference definitions, autolinks and bare addresses.
  [/^[ \t]{0,3}\[[^\]\n]{1,500}\]:.*$/gm, ' '],
  [/<(?:https?|mailto):[^>\s]{0,2000}>/gi, ' '],
  [/\b(?:https?:\/\/|www\.)[^\s)\]>]{1,2000}/gi, ' '],
  // JSX and HTML tags, on one line or several (their text content stays), MDX import and export lines.
  [/<\/?[A-Za-z][^<>]{0,1000}>/g, ' '],
  [/^(?:import|export)\s.*$/gm, ' '],
  // List markers, heading marks, quotes, emphasis, code ticks, table bars and rules.
  [/^[ \t]*(?:[-+*]|\d{1,9}[.)])[ \t]+/gm, ' '],
  [/[*_`~#>|]+/g, ' '],
  [/^[ \t]*[-=]{3,}[ \t]*$/gm, ' '],
  [/\\([\\`*_{}[\]()#+\-.!|])/g, '$1'],
  [/\s+/g, ' '],
];

/** The words of a Markdown or MDX body, one space between them. */
export function plainText(source: string): string {
  let text = source;
  for (const [pattern, replacement] of STEPS) text = text.replace(pattern, replacement);
  return text.trim();
}
