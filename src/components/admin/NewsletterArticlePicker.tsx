/**
 * "Start from an article": a published blog article (the public list gives the choice) fills the
 * issue's subject, preview text, body and level from the staff API's starting draft. Asks first when
 * the form already holds text, since the article replaces it.
 */
import { useEffect, useId, useState } from 'react';
import { toast } from '../../lib/browser/toast.ts';
import { INPUT_CLASS } from '../forms/TextField.tsx';
import { articleDraft, failureText, publishedArticles, type IssueInput } from './newsletter-api.ts';

const BUTTON =
  'min-h-10 rounded-lg px-4 py-2 text-sm font-semibold text-brand-700 ring-1 ring-inset ring-brand-200 hover:bg-brand-50 disabled:opacity-60';

type NewsletterArticlePickerProps = {
  /** Whether the form already holds text the article would replace. */
  hasText: boolean;
  onPick: (article: Omit<IssueInput, 'audience'>) => void;
};

export function NewsletterArticlePicker({ hasText, onPick }: NewsletterArticlePickerProps) {
  const [open, setOpen] = useState(false);
  const [articles, setArticles] = useState<{ slug: string; title: string }[] | null>(null);
  const [error, setError] = useState('');
  const [slug, setSlug] = useState('');
  const [filling, setFilling] = useState(false);
  const ids = useId();

  useEffect(() => {
    if (!open || articles) return;
    const controller = new AbortController();
    publishedArticles(controller.signal)
      .then((result) => {
        if (!result.ok) return setError(failureText(result, 'The articles could not be loaded.'));
        setArticles(result.data);
        setSlug(result.data[0]?.slug ?? '');
      })
      .catch(() => undefined); // aborted
    return () => controller.abort();
  }, [open, articles]);

  async function fill() {
    if (!slug || (hasText && !window.confirm('Replace the subject, preview text, body and access level with the article?'))) return;
    setFilling(true);
    const result = await articleDraft(slug);
    setFilling(false);
    if (!result.ok) {
      toast({ title: 'Error', description: failureText(result, 'The article could not be loaded.'), variant: 'destructive' });
      return;
    }
    onPick(result.data);
    setOpen(false);
    toast({ title: 'Article added', description: `"${result.data.subject}" fills the issue. Edit it as you like before sending.` });
  }

  if (!open)
    return (
      <button type="button" className={BUTTON} aria-expanded="false" onClick={() => setOpen(true)}>
        Start from an article
      </button>
    );
  return (
    <div className="space-y-3 rounded-2xl bg-slate-50 p-5 ring-1 ring-slate-200">
      <ArticleChoice
        ids={ids}
        error={error}
        articles={articles}
        slug={slug}
        filling={filling}
        onSlug={setSlug}
        onFill={() => void fill()}
      />
      <button
        type="button"
        className="text-sm font-semibold text-slate-600 hover:underline"
        aria-expanded="true"
        onClick={() => setOpen(false)}
      >
        Close
      </button>
    </div>
  );
}

type ArticleChoiceProps = {
  ids: string;
  error: string;
  articles: { slug: string; title: string }[] | null;
  slug: string;
  filling: boolean;
  onSlug: (slug: string) => void;
  onFill: () => void;
};

/** The published articles to choose from (or why there are none), and the button that fills the issue. */
function ArticleChoice({ ids, error, articles, slug, filling, onSlug, onFill }: ArticleChoiceProps) {
  return error ? (
    <p role="alert" className="text-sm text-red-700">
      {error}
    </p>
  ) : articles === null ? (
    <p role="status" className="text-sm text-slate-600">
      Loading articles...
    </p>
  ) : articles.length === 0 ? (
    <p className="text-sm text-slate-600">No published articles yet.</p>
  ) : (
    <div className="flex flex-wrap items-end gap-3">
      <div className="min-w-64 flex-1">
        <label htmlFor={`${ids}-article`} className="block text-sm font-medium text-slate-700">
          Published article
        </label>
        <select id={`${ids}-article`} className={INPUT_CLASS} value={slug} onChange={(e) => onSlug(e.target.value)}>
          {articles.map((a) => (
            <option key={a.slug} value={a.slug}>
              {a.title}
            </option>
          ))}
        </select>
      </div>
      <button type="button" className={BUTTON} disabled={filling || !slug} onClick={onFill}>
        {filling ? 'Filling...' : 'Use this article'}
      </button>
    </div>
  );
}
