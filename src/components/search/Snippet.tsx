/** A result's snippet as text, its matched words in <mark> (never set as HTML: see `snippetParts`). */
import { snippetParts } from '#shared/search.ts';

export function Snippet({ snippet }: { snippet: string }) {
  const runs = snippetParts(snippet);
  if (runs.length === 0) return null;
  return (
    <p className="mt-1 text-sm text-slate-700">
      {runs.map((run, i) =>
        run.marked ? (
          <mark key={i} className="rounded bg-amber-100 px-0.5 text-ink">
            {run.text}
          </mark>
        ) : (
          <span key={i}>{run.text}</span>
        ),
      )}
    </p>
  );
}
