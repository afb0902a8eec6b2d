/** Loading and failure states shared by the gated islands. */
import type { ReactNode } from 'react';

/** Grey lines where text is coming, announced once to screen readers. */
export function LoadingLines({ label, lines = 6 }: { label: string; lines?: number }) {
  return (
    <div role="status" aria-live="polite" className="flex animate-pulse flex-col gap-3 py-2">
      <span className="sr-only">{label}</span>
      {Array.from({ length: lines }, (_, i) => (
        <span key={i} aria-hidden="true" className={`h-4 rounded bg-slate-200 ${i % 3 === 2 ? 'w-2/3' : 'w-full'}`} />
      ))}
    </div>
  );
}

/** A failure message, with Retry when trying again can help. */
export function LoadFailure({ message, onRetry }: { message: string; onRetry?: (() => void) | undefined }) {
  return (
    <div role="alert" className="rounded-2xl border border-red-200 bg-red-50 p-6 text-center">
      <p className="text-red-800">{message}</p>
      {onRetry && (
        <button
          type="button"
          onClick={onRetry}
          className="mt-4 min-h-11 rounded-lg bg-white px-5 py-2.5 text-sm font-semibold text-red-800 ring-1 ring-inset ring-red-300 hover:bg-red-100"
        >
          Retry
        </button>
      )}
    </div>
  );
}

/**
 * A loading state exactly the size of what most likely follows: `children` (that state, say an
 * empty list's line) laid out invisibly, under a grey pulse. When it arrives nothing below moves.
 */
export function Reserved({ children, label }: { children: ReactNode; label?: string }) {
  return (
    <div className="relative">
      <div aria-hidden="true" className="invisible">
        {children}
      </div>
      <span aria-hidden="true" className="absolute inset-0 animate-pulse rounded-lg bg-slate-100" />
      {label && (
        <span role="status" className="sr-only">
          {label}
        </span>
      )}
    </div>
  );
}
