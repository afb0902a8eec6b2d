/** 'n of m lessons complete' with a bar (the course viewer and the account page). */
export function ProgressBar({ completed, total, label }: { completed: number; total: number; label?: string }) {
  const percent = total > 0 ? Math.round((Math.min(completed, total) / total) * 100) : 0;
  const text = `${completed} of ${total} lessons complete`;
  return (
    <div data-testid="course-progress">
      <p className="text-sm font-medium text-slate-700">{text}</p>
      <div
        role="progressbar"
        aria-label={label ?? 'Course progress'}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={completed}
        aria-valuetext={text}
        className="mt-2 h-2 overflow-hidden rounded-full bg-slate-200"
      >
        <div className="h-full rounded-full bg-brand-600 transition-[width]" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
