import type { UploadProgress as Progress } from './use-uploads.ts';

/** The file being uploaded: its name (and which of how many), a bar with the percent sent, and Cancel. */
export function UploadProgress({ progress, onCancel }: { progress: Progress; onCancel: () => void }) {
  const percent = Math.round(progress.sent * 100);
  const label = `Uploading ${progress.name}${progress.count > 1 ? ` (${progress.index + 1} of ${progress.count})` : ''}`;
  return (
    <div data-testid="upload-progress" className="space-y-2 rounded-lg p-3 ring-1 ring-slate-200">
      <div className="flex items-center justify-between gap-3 text-sm text-slate-700">
        <span className="truncate">{label}</span>
        <span aria-hidden="true" className="tabular-nums">
          {percent}%
        </span>
      </div>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${percent}%`}
        className="h-2 overflow-hidden rounded-full bg-slate-200"
      >
        <div className="h-full rounded-full bg-brand-600 transition-[width]" style={{ width: `${percent}%` }} />
      </div>
      <button
        type="button"
        onClick={onCancel}
        className="rounded-md px-2.5 py-1 text-sm font-medium text-slate-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-50"
      >
        Cancel upload
      </button>
    </div>
  );
}
