/**
 * What the support forms share: the message box, the optional attachment (its type and size said up
 * front, and a file over the limit refused before anything is sent; the server judges the bytes), and
 * the reply form of a conversation. Staff's reply form adds "Internal note" and the status after the
 * reply. Browser only.
 */
import { useId, useRef, useState, type FormEvent, type RefObject } from 'react';
import { ATTACHMENT_ACCEPT, ATTACHMENT_MAX_BYTES, STATUS_LABEL, type RequestStatus } from '#shared/support/targets.ts';
import { INPUT_CLASS } from '../forms/TextField.tsx';
import { failureText, fileSize, sendMessage } from './support-api.ts';

export const BUTTON = 'min-h-11 rounded-lg px-5 py-2.5 text-sm font-semibold disabled:opacity-60';
export const PRIMARY = `${BUTTON} bg-brand-600 text-white hover:bg-brand-700`;

export function MessageBox({ label, value, onChange }: { label: string; value: string; onChange: (value: string) => void }) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <textarea
        id={id}
        required
        rows={6}
        maxLength={10_000}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className={INPUT_CLASS}
      />
    </div>
  );
}

/** The attachment input; `fileRef` reads the chosen file, and a file over the limit is cleared with a note. */
export function AttachmentField({
  fileRef,
  onProblem,
}: {
  fileRef: RefObject<HTMLInputElement | null>;
  onProblem: (text: string) => void;
}) {
  const id = useId();
  const noteId = useId();
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        Attachment (optional)
      </label>
      <input
        id={id}
        ref={fileRef}
        type="file"
        accept={ATTACHMENT_ACCEPT}
        aria-describedby={noteId}
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (file && file.size > ATTACHMENT_MAX_BYTES) {
            e.target.value = '';
            onProblem(`That file is ${fileSize(file.size)}; attachments can be up to ${fileSize(ATTACHMENT_MAX_BYTES)}.`);
          } else onProblem('');
        }}
        className="mt-1 block w-full text-sm text-slate-700 file:mr-3 file:min-h-11 file:rounded-lg file:border-0 file:bg-slate-100 file:px-4 file:font-semibold"
      />
      <p id={noteId} className="mt-1 text-sm text-slate-500">
        An image, a video or a PDF, up to {fileSize(ATTACHMENT_MAX_BYTES)}.
      </p>
    </div>
  );
}

/** The reply form under a conversation; `staff` adds the internal-note switch and the status after the reply. */
export function ReplyForm({ requestId, staff = false, onSent }: { requestId: string; staff?: boolean; onSent: () => void }) {
  const [body, setBody] = useState('');
  const [internal, setInternal] = useState(false);
  const [status, setStatus] = useState<RequestStatus>('waiting');
  const [problem, setProblem] = useState('');
  const [sending, setSending] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);
  const statusId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSending(true);
    setProblem('');
    const file = fileRef.current?.files?.[0];
    const input = staff ? { body: body.trim(), internal, ...(internal ? {} : { status }) } : { body: body.trim() };
    const result = await sendMessage(requestId, input, file);
    setSending(false);
    if (!result.ok) return setProblem(failureText(result, 'Your message could not be sent.'));
    setBody('');
    if (fileRef.current) fileRef.current.value = '';
    onSent();
  }

  return (
    <form onSubmit={submit} aria-label={staff ? 'Reply or add a note' : 'Reply'} className="flex flex-col gap-4">
      <MessageBox label={staff && internal ? 'Internal note' : 'Your reply'} value={body} onChange={setBody} />
      <AttachmentField fileRef={fileRef} onProblem={setProblem} />
      {staff && (
        <div className="flex flex-wrap items-end gap-4">
          <label className="flex min-h-11 items-center gap-2 text-sm font-medium text-slate-700">
            <input type="checkbox" checked={internal} onChange={(e) => setInternal(e.target.checked)} className="h-4 w-4" />
            Internal note (staff only, never sent to the member)
          </label>
          {!internal && (
            <div>
              <label htmlFor={statusId} className="block text-sm font-medium text-slate-700">
                Status after reply
              </label>
              <select
                id={statusId}
                value={status}
                onChange={(e) => setStatus(e.target.value as RequestStatus)}
                className={`${INPUT_CLASS} min-h-11 w-auto`}
              >
                {(['waiting', 'open', 'closed'] as const).map((s) => (
                  <option key={s} value={s}>
                    {STATUS_LABEL[s]}
                  </option>
                ))}
              </select>
            </div>
          )}
        </div>
      )}
      {problem && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {problem}
        </p>
      )}
      <div>
        <button type="submit" disabled={sending || !body.trim()} className={PRIMARY}>
          {sending ? 'Sending…' : staff && internal ? 'Add note' : 'Send reply'}
        </button>
      </div>
    </form>
  );
}
