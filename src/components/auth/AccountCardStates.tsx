/** The failure and empty states the account page's list cards share (course progress, upcoming events). */

/** "We could not load …" with a Retry button. */
export function CardFailure({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div className="mt-4">
      <p className="text-slate-600">{message}</p>
      <button
        type="button"
        onClick={onRetry}
        className="mt-3 min-h-11 rounded-lg px-5 py-2.5 text-sm font-semibold ring-1 ring-inset ring-slate-300"
      >
        Retry
      </button>
    </div>
  );
}

/** Nothing to list yet, with a link to where the member can start. */
export function CardEmpty({ text, href, link }: { text: string; href: string; link: string }) {
  return (
    <p className="mt-4 text-slate-600">
      {text}{' '}
      <a href={href} className="font-semibold text-brand-700 underline">
        {link}
      </a>
    </p>
  );
}
