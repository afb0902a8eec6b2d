/** A failed load's alert with its Try Again button (the searches' failed state). */
import type { ReactNode } from 'react';

export function RetryAlert({ children, onRetry, className = '' }: { children: ReactNode; onRetry: () => void; className?: string }) {
  return (
    <div role="alert" className={`rounded-xl border border-red-200 bg-red-50 p-4 text-red-800 ${className}`}>
      {children}{' '}
      <button type="button" onClick={onRetry} className="font-semibold underline">
        Try Again
      </button>
    </div>
  );
}
