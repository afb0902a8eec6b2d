/**
 * The members file in the Users tab (issue 35): Export CSV downloads the filtered members; Import CSV
 * takes a file, runs it dry first (how many rows, and every row's problem in a table, nothing
 * written), then "Import N members" writes it and says how many were created and updated and which
 * rows were left out. Results are announced (aria-live).
 */
import { useId, useRef, useState, type FormEvent, type RefObject } from 'react';
import type { MemberFilter } from '#shared/members.ts';
import { SMALL_BUTTON } from './MemberFilters.tsx';
import { downloadMembers, reason, sendMembersFile, type DryRun, type ImportDone } from './members-api.ts';

const plural = (n: number, one: string) => `${n} ${n === 1 ? one : `${one}s`}`;

function Problems({ errors, caption }: { errors: DryRun['errors']; caption: string }) {
  if (errors.length === 0) return null;
  return (
    <div className="mt-3 max-h-72 overflow-auto rounded-xl ring-1 ring-slate-200">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50 text-slate-700">
          <tr>
            <th scope="col" className="px-3 py-2">
              Row
            </th>
            <th scope="col" className="px-3 py-2">
              Problem
            </th>
          </tr>
        </thead>
        <tbody>
          {errors.map((e, i) => (
            <tr key={`${e.row}-${i}`} className="border-t border-slate-100">
              <td className="px-3 py-1.5 tabular-nums">{e.row}</td>
              <td className="px-3 py-1.5">{e.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function MembersFile({ filter, onImported }: { filter: MemberFilter; onImported: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [dry, setDry] = useState<DryRun | null>(null);
  const [done, setDone] = useState<ImportDone | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const ids = useId();

  async function exportFile() {
    setBusy(true);
    const result = await downloadMembers(filter);
    setBusy(false);
    setMessage(result.ok ? 'The members file was downloaded.' : reason(result, 'The members file could not be downloaded.'));
  }

  async function check(event: FormEvent) {
    event.preventDefault();
    if (!file) return;
    setBusy(true);
    setDry(null);
    setDone(null);
    const result = await sendMembersFile(file, true);
    setBusy(false);
    if (!result.ok) return setMessage(reason(result, 'The file could not be checked.'));
    setDry(result.data);
    const { rows, errors } = result.data;
    setMessage(`${plural(rows, 'row')} read; ${errors.length ? `${plural(errors.length, 'problem')} found` : 'no problems'}.`);
  }

  async function run() {
    if (!file || !dry) return;
    setBusy(true);
    const result = await sendMembersFile(file, false);
    setBusy(false);
    if (!result.ok) return setMessage(reason(result, 'The file could not be imported.'));
    setDone(result.data);
    setDry(null);
    const { created, updated, errors } = result.data;
    setMessage(`Imported: ${created} created, ${updated} updated, ${plural(errors.length, 'row')} left out.`);
    onImported();
  }

  const importable = dry ? dry.rows - new Set(dry.errors.map((e) => e.row)).size : 0;
  return (
    <section aria-labelledby={`${ids}-title`} className="rounded-2xl bg-white p-4 ring-1 ring-slate-200">
      <h3 id={`${ids}-title`} className="text-sm font-semibold text-slate-900">
        Members file
      </h3>
      <div className="mt-2 flex flex-wrap items-end gap-3">
        <button type="button" disabled={busy} onClick={() => void exportFile()} className={`${SMALL_BUTTON} ring-1 ring-slate-300`}>
          Export CSV
        </button>
        <ImportForm
          ids={ids}
          input={input}
          disabled={busy || !file}
          onFile={(picked) => {
            setFile(picked);
            setDry(null);
            setDone(null);
          }}
          onSubmit={(e) => void check(e)}
        />
      </div>
      <p aria-live="polite" className="mt-2 text-sm text-slate-700" data-testid="members-file-status">
        {busy ? 'Working...' : message}
      </p>
      {dry && <DryRunResult dry={dry} importable={importable} busy={busy} onImport={() => void run()} />}
      {done && <Problems errors={done.errors} caption="Rows left out of the import" />}
    </section>
  );
}

type ImportFormProps = {
  ids: string;
  input: RefObject<HTMLInputElement | null>;
  /** Whether Import CSV is off (a file is being sent, or none is chosen). */
  disabled: boolean;
  onFile: (file: File | null) => void;
  onSubmit: (event: FormEvent) => void;
};

/** The file to import and the button that runs it dry. */
function ImportForm({ ids, input, disabled, onFile, onSubmit }: ImportFormProps) {
  return (
    <form onSubmit={onSubmit} className="flex flex-wrap items-end gap-3">
      <div>
        <label htmlFor={`${ids}-file`} className="block text-sm font-medium text-slate-700">
          CSV file to import
        </label>
        <input
          id={`${ids}-file`}
          ref={input}
          type="file"
          accept=".csv,text/csv"
          className="mt-1 block text-sm"
          onChange={(e) => onFile(e.target.files?.[0] ?? null)}
        />
      </div>
      <button type="submit" disabled={disabled} className={`${SMALL_BUTTON} ring-1 ring-slate-300`}>
        Import CSV
      </button>
    </form>
  );
}

type DryRunResultProps = { dry: DryRun; importable: number; busy: boolean; onImport: () => void };

/** The dry run's problems, and the button that writes the rows without one. */
function DryRunResult({ dry, importable, busy, onImport }: DryRunResultProps) {
  return (
    <div className="mt-2">
      <Problems errors={dry.errors} caption="Problems the dry run found" />
      <p className="mt-3 text-sm text-slate-600">Nothing is written until you import. Rows with a problem are left out.</p>
      <button
        type="button"
        disabled={busy || importable === 0}
        onClick={onImport}
        className={`${SMALL_BUTTON} mt-2 bg-brand-600 text-white hover:bg-brand-700`}
      >
        Import {plural(importable, 'member')}
      </button>
    </div>
  );
}
