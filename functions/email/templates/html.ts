/** HTML building for email templates: every interpolated value is escaped unless marked safe. */

export interface SafeHtml {
  readonly __html: string;
}

import { escapeHtml } from '#shared/html-entities.ts';

export { escapeHtml };

/** Marks trusted markup (our own template fragments) as safe. */
export const safe = (markup: string): SafeHtml => ({ __html: markup });

type Value = SafeHtml | string | number | null | undefined | false | readonly Value[];

function render(value: Value): string {
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return value.map(render).join('');
  if (typeof value === 'object' && '__html' in value) return value.__html;
  return escapeHtml(String(value));
}

/** Tagged template: `html\`<p>${userText}</p>\`` escapes `userText`. */
export function html(strings: TemplateStringsArray, ...values: Value[]): SafeHtml {
  return safe(strings.reduce((out, s, i) => out + s + (i < values.length ? render(values[i]!) : ''), ''));
}

/** User text as paragraphs: escaped, with line breaks kept. */
export function paragraphs(text: string): SafeHtml {
  return safe(
    text
      .split(/\r?\n\s*\r?\n/)
      .map((p) => `<p style="margin:0 0 16px">${escapeHtml(p).replace(/\r?\n/g, '<br>')}</p>`)
      .join(''),
  );
}
