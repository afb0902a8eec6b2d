/**
 * The lead dialog of the tools list (spec point 2): a form (name, email, optional phone), then a
 * Thank You state with Download Now. A visitor whose email is stored skips the form. The server
 * emails the link too; failures show the spec's 'Error' toast.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { GENERIC_ERROR } from '../../lib/browser/api-result.ts';
import { fieldMessage, requestLead } from '../../lib/browser/form-api.ts';
import { readStored, STORAGE_KEYS, writeStored } from '../../lib/browser/storage-keys.ts';
import { toast } from '../../lib/browser/toast.ts';
import { INPUT_CLASS } from '../forms/TextField.tsx';

type Step =
  { kind: 'preparing' } | { kind: 'form'; email: string; sending: boolean } | { kind: 'thanks'; email: string; downloadUrl: string };
type Field = 'name' | 'email' | 'phone';
type FieldErrors = Partial<Record<Field, string>>;
type Outcome = { ok: true; downloadUrl: string } | { ok: false; fields: FieldErrors };

/** Asks the server for the download (it also emails the link); field errors come back by name. */
async function requestDownload(body: Parameters<typeof requestLead>[0]): Promise<Outcome> {
  const result = await requestLead(body);
  if (result.ok && result.data.downloadUrl) return { ok: true, downloadUrl: result.data.downloadUrl };
  const fields: FieldErrors = {};
  if (!result.ok)
    for (const f of ['name', 'email', 'phone'] as const) {
      const message = fieldMessage(result, f);
      if (message) fields[f] = message;
    }
  return { ok: false, fields };
}

function failToast() {
  toast({ title: 'Error', description: GENERIC_ERROR, variant: 'destructive' });
}

export function LeadDialog({ toolId, toolTitle, onClose }: { toolId: string; toolTitle: string; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  // A returning visitor (email remembered) gets the link at once; others start with the form.
  const [stored] = useState(() => readStored(STORAGE_KEYS.userEmail));
  const [step, setStep] = useState<Step>(stored ? { kind: 'preparing' } : { kind: 'form', email: '', sending: false });
  const [errors, setErrors] = useState<FieldErrors>({});
  const id = useId();

  useEffect(() => {
    ref.current?.showModal();
    if (!stored) return;
    void requestDownload({ email: stored, toolId }).then((outcome) =>
      setStep(
        outcome.ok ? { kind: 'thanks', email: stored, downloadUrl: outcome.downloadUrl } : { kind: 'form', email: stored, sending: false },
      ),
    );
  }, [toolId, stored]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = Object.fromEntries(new FormData(event.currentTarget)) as Record<string, string>;
    const body = {
      name: data.name ?? '',
      email: data.email ?? '',
      toolId,
      ...(data.phone ? { phone: data.phone } : {}),
      website: data.website ?? '',
    };
    setStep({ kind: 'form', email: body.email, sending: true });
    const outcome = await requestDownload(body);
    if (outcome.ok) {
      writeStored(STORAGE_KEYS.userEmail, body.email.trim().toLowerCase());
      setErrors({});
      setStep({ kind: 'thanks', email: body.email, downloadUrl: outcome.downloadUrl });
    } else {
      setErrors(outcome.fields);
      setStep({ kind: 'form', email: body.email, sending: false });
      failToast();
    }
  }

  return (
    <dialog
      ref={ref}
      onClose={onClose}
      aria-labelledby={`${id}-title`}
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-2xl p-0 shadow-2xl backdrop:bg-slate-900/50"
    >
      <div className="p-6">
        {step.kind === 'preparing' ? (
          <p id={`${id}-title`} role="status" className="py-6 text-center text-sm text-slate-600">
            Preparing your download…
          </p>
        ) : step.kind === 'thanks' ? (
          <ThankYou id={id} toolTitle={toolTitle} email={step.email} downloadUrl={step.downloadUrl} />
        ) : (
          <LeadForm
            id={id}
            toolTitle={toolTitle}
            email={step.email}
            sending={step.sending}
            errors={errors}
            onSubmit={submit}
            onCancel={() => ref.current?.close()}
          />
        )}
      </div>
    </dialog>
  );
}

type ThankYouProps = { id: string; toolTitle: string; email: string; downloadUrl: string };

/** The download is ready: Download Now, and the address the link went to as well. */
function ThankYou({ id, toolTitle, email, downloadUrl }: ThankYouProps) {
  return (
    <div className="text-center">
      <h2 id={`${id}-title`} className="text-xl font-semibold text-ink">
        Thank You!
      </h2>
      <p className="mt-2 text-sm text-slate-600">
        Your copy of {toolTitle} is ready. We also emailed the link to {email}.
      </p>
      <a
        href={downloadUrl}
        download
        className="mt-6 inline-block rounded-lg bg-brand-600 px-5 py-2.5 text-sm font-semibold text-white hover:bg-brand-700"
      >
        Download Now
      </a>
    </div>
  );
}

type LeadFormProps = {
  id: string;
  toolTitle: string;
  /** The address to start from (a remembered one the server refused), or empty. */
  email: string;
  sending: boolean;
  errors: FieldErrors;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  onCancel: () => void;
};

/** Where to send the download: the fields, Cancel and Get the download. */
function LeadForm({ id, toolTitle, email, sending, errors, onSubmit, onCancel }: LeadFormProps) {
  return (
    <form onSubmit={onSubmit}>
      <h2 id={`${id}-title`} className="text-xl font-semibold text-ink">
        Download {toolTitle}
      </h2>
      <p className="mt-1 text-sm text-slate-600">Tell us where to send it. We will email you the link as well.</p>
      <LeadFields id={id} email={email} errors={errors} />
      <div className="mt-6 flex justify-end gap-3">
        <button type="button" onClick={onCancel} className="rounded-lg px-4 py-2 text-sm font-semibold text-slate-700 hover:bg-slate-100">
          Cancel
        </button>
        <button
          type="submit"
          disabled={sending}
          className="rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-60"
        >
          {sending ? 'Sending…' : 'Get the download'}
        </button>
      </div>
    </form>
  );
}

/** Name, email and optional phone, each with the server's complaint; a hidden field for bots. */
function LeadFields({ id, email, errors }: { id: string; email: string; errors: FieldErrors }) {
  const described = (field: Field) => (errors[field] ? { 'aria-invalid': true, 'aria-describedby': `${id}-${field}` } : {});
  const error = (field: Field) =>
    errors[field] ? (
      <p id={`${id}-${field}`} className="mt-1 text-xs text-red-700">
        {errors[field]}
      </p>
    ) : null;

  return (
    <div className="mt-4 flex flex-col gap-3">
      <label className="text-sm font-medium text-slate-700">
        Name
        <input name="name" required maxLength={100} autoComplete="name" className={INPUT_CLASS} {...described('name')} />
        {error('name')}
      </label>
      <label className="text-sm font-medium text-slate-700">
        Email
        <input
          name="email"
          type="email"
          required
          maxLength={254}
          autoComplete="email"
          defaultValue={email}
          className={INPUT_CLASS}
          {...described('email')}
        />
        {error('email')}
      </label>
      <label className="text-sm font-medium text-slate-700">
        Phone <span className="font-normal text-slate-500">(optional)</span>
        <input name="phone" type="tel" maxLength={40} autoComplete="tel" className={INPUT_CLASS} {...described('phone')} />
        {error('phone')}
      </label>
      <input name="website" tabIndex={-1} autoComplete="off" aria-hidden="true" className="absolute -left-[9999px] h-0 w-0 opacity-0" />
    </div>
  );
}
