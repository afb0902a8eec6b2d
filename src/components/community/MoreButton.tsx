/**
 * "Load more": a link to the next cursor page (so it works without JavaScript and crawlers follow
 * it), which the island turns into an in-place load; with a failure message and Retry.
 */
export interface MoreButtonProps {
  nextCursor: string | null;
  href: (cursor: string) => string;
  state: 'idle' | 'loading' | 'error';
  onMore: () => void;
  label: string;
}

export function MoreButton({ nextCursor, href, state, onMore, label }: MoreButtonProps) {
  if (!nextCursor) return null;
  return (
    <div className="flex flex-col items-center gap-2">
      {state === 'error' && (
        <p role="alert" className="text-sm text-red-700">
          Failed to load more. Please try again.
        </p>
      )}
      <a
        href={href(nextCursor)}
        aria-disabled={state === 'loading' ? true : undefined}
        onClick={(e) => {
          e.preventDefault();
          if (state !== 'loading') onMore();
        }}
        className="inline-flex min-h-11 items-center rounded-lg px-5 py-2.5 text-sm font-semibold text-brand-700 ring-1 ring-inset ring-brand-200 hover:bg-brand-50"
      >
        {state === 'loading' ? 'Loading…' : state === 'error' ? 'Try Again' : label}
      </a>
    </div>
  );
}
