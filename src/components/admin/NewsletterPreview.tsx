/**
 * The issue as each level gets it (Visitor, Free, Subscriber, Premium): the server's copy for that
 * level, HTML and text part, of the saved issue (choosing a level saves unsaved changes first).
 *
 * The HTML is a mail, laid out with inline styles, which the dashboard's policy (hashed style-src)
 * refuses: parsing it here (DOMParser, a srcdoc frame) made a CSP report per style. So the dashboard
 * never touches it: the frame loads the copy from the server's short-lived signed link, served with a
 * policy of its own (inline styles, images from our hosts, nothing active), and the frame's sandbox
 * (no flags) adds no scripts, forms, popups or navigation of the page and an origin of its own.
 */
import { useId, useState } from 'react';
import { failureText, previewIssue, type Issue, type IssuePreview, type PreviewLevel } from './newsletter-api.ts';
import { PREVIEW_LEVELS } from './newsletter-format.ts';

export function NewsletterPreview({ save }: { save: () => Promise<Issue | null> }) {
  const [level, setLevel] = useState<PreviewLevel | null>(null);
  const [preview, setPreview] = useState<IssuePreview | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState('');
  const ids = useId();
  const label = PREVIEW_LEVELS.find((l) => l.id === level)?.label ?? '';

  async function show(next: PreviewLevel) {
    setLevel(next);
    setLoading(true);
    setError('');
    const saved = await save();
    if (!saved) {
      setLoading(false);
      setPreview(null);
      return setError('Save the issue to preview it.');
    }
    const result = await previewIssue(saved.id, next);
    setLoading(false);
    if (result.ok) setPreview(result.data);
    else {
      setPreview(null);
      setError(failureText(result, 'The preview could not be loaded.'));
    }
  }

  return (
    <section aria-labelledby={`${ids}-title`} className="space-y-4 border-t border-slate-200 pt-6">
      <h3 id={`${ids}-title`} className="text-lg font-bold text-slate-900">
        Preview
      </h3>
      <div role="group" aria-label="Preview as" className="flex flex-wrap items-center gap-2">
        <span className="text-sm text-slate-600">Preview as</span>
        {PREVIEW_LEVELS.map((l) => (
          <button
            key={l.id}
            type="button"
            aria-pressed={level === l.id}
            onClick={() => void show(l.id)}
            className={`min-h-9 rounded-lg px-3 py-1.5 text-sm font-semibold ring-1 ring-inset ${level === l.id ? 'bg-brand-600 text-white ring-brand-600' : 'text-slate-700 ring-slate-300 hover:bg-slate-50'}`}
          >
            {l.label}
          </button>
        ))}
      </div>
      <p role="status" className="text-sm text-slate-600">
        {loading
          ? 'Loading preview...'
          : preview
            ? `The copy a ${label} reader gets.`
            : 'Choose a level to see the copy it gets (unsaved changes are saved first).'}
      </p>
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      {preview && !loading && (
        <div className="space-y-3">
          <p className="text-sm text-slate-700">
            <span className="font-medium">Subject:</span> <span data-testid="preview-subject">{preview.subject}</span>
          </p>
          <iframe
            title={`Preview as ${label}`}
            sandbox=""
            src={preview.url}
            referrerPolicy="no-referrer"
            className="h-[600px] w-full rounded-xl bg-white ring-1 ring-slate-200"
          />
          <details className="rounded-xl bg-slate-50 p-4 ring-1 ring-slate-200">
            <summary className="cursor-pointer text-sm font-semibold text-slate-700">Text version</summary>
            <pre data-testid="preview-text" className="mt-3 whitespace-pre-wrap break-words font-sans text-sm text-slate-700">
              {preview.text}
            </pre>
          </details>
        </div>
      )}
    </section>
  );
}
