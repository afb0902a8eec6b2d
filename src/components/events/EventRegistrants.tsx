/**
 * An event's registrants in the admin dashboard's content list (editors and admins): a Registrants
 * button that opens the list (name, email, status, when) and a CSV download, both from the staff
 * events API with the member's token. Browser only.
 */
import { useState } from 'react';
import { formatLocalTime, localTimeZone } from '#shared/events/format.ts';
import { api } from '../../lib/browser/api.ts';
import { toast } from '../../lib/browser/toast.ts';
import { fetchRegistrants, type Registrants } from './events-api.ts';

const ITEM_BUTTON = 'min-h-9 rounded-lg px-3 py-1.5 text-sm font-semibold ring-1 ring-inset disabled:opacity-60';

/** When a member registered, in the staff member's own zone. */
const shortDate = (iso: string) => formatLocalTime(iso, localTimeZone());

export function EventRegistrants({ slug }: { slug: string }) {
  const [open, setOpen] = useState(false);
  const [list, setList] = useState<Registrants | null>(null);
  const [error, setError] = useState('');

  async function toggle() {
    if (open) return setOpen(false);
    setOpen(true);
    const result = await fetchRegistrants(slug);
    if (result.ok) setList(result.data);
    else setError(result.kind === 'error' || result.kind === 'not-found' ? result.message : 'The registrants could not be loaded.');
  }

  async function download() {
    try {
      const res = await api.eventsAdmin[':slug']['registrants.csv'].$get({ param: { slug: encodeURIComponent(slug) } });
      if (!res.ok) throw new Error(String(res.status));
      const href = URL.createObjectURL(await res.blob());
      const a = Object.assign(document.createElement('a'), { href, download: `${slug}-registrants.csv` });
      a.click();
      setTimeout(() => URL.revokeObjectURL(href), 10_000);
    } catch {
      toast({ title: 'Error', description: 'The CSV file could not be downloaded.', variant: 'destructive' });
    }
  }

  return (
    <div className="basis-full">
      <button
        type="button"
        aria-expanded={open}
        onClick={() => void toggle()}
        className={`${ITEM_BUTTON} text-slate-700 ring-slate-300 hover:bg-slate-50`}
      >
        Registrants
      </button>
      {open && (
        <div className="mt-3 rounded-xl bg-slate-50 p-4 text-sm">
          {error && <p role="alert">{error}</p>}
          {!error && !list && <p role="status">Loading registrants…</p>}
          {list && (
            <>
              <div className="flex flex-wrap items-center justify-between gap-2">
                <p className="font-medium text-slate-800">
                  {list.registered} registered{list.event.capacity !== null ? ` of ${list.event.capacity} seats` : ''}
                </p>
                <button
                  type="button"
                  onClick={() => void download()}
                  className={`${ITEM_BUTTON} text-brand-700 ring-brand-200 hover:bg-brand-50`}
                >
                  Download CSV
                </button>
              </div>
              {list.registrants.length > 0 && (
                <table className="mt-3 w-full text-left">
                  <thead className="text-slate-600">
                    <tr>
                      <th className="py-1 pr-3 font-medium">Name</th>
                      <th className="py-1 pr-3 font-medium">Email</th>
                      <th className="py-1 pr-3 font-medium">Status</th>
                      <th className="py-1 font-medium">Registered</th>
                    </tr>
                  </thead>
                  <tbody>
                    {list.registrants.map((r) => (
                      <tr key={r.email} className="border-t border-slate-200">
                        <td className="py-1 pr-3">{r.name}</td>
                        <td className="py-1 pr-3">{r.email}</td>
                        <td className="py-1 pr-3">{r.status}</td>
                        <td className="py-1">{shortDate(r.registeredAt)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </>
          )}
        </div>
      )}
    </div>
  );
}
