/** Six placeholder cards shown while a list loads. */
export function SkeletonGrid({ count = 6 }: { count?: number }) {
  return (
    <div aria-busy="true" className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
      <span className="sr-only" role="status">
        Loading…
      </span>
      {Array.from({ length: count }, (_, i) => (
        <div
          key={i}
          data-testid="skeleton-card"
          className="flex animate-pulse flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white"
        >
          <div className="aspect-video bg-slate-200" />
          <div className="flex flex-col gap-3 p-5">
            <div className="h-4 w-20 rounded bg-slate-200" />
            <div className="h-5 w-3/4 rounded bg-slate-200" />
            <div className="h-4 w-full rounded bg-slate-200" />
            <div className="h-4 w-5/6 rounded bg-slate-200" />
            <div className="flex gap-2">
              <div className="h-5 w-14 rounded-full bg-slate-200" />
              <div className="h-5 w-16 rounded-full bg-slate-200" />
            </div>
          </div>
        </div>
      ))}
    </div>
  );
}
