/**
 * The account page's Settings tab: the language of the member's emails, whether they get the members'
 * newsletter (on by default where the plan includes it) and the community's reply emails (on by
 * default; their own API, `/api/community/settings`), the private RSS feed, and the Danger Zone,
 * whose Delete Account really deletes (after a confirmation dialog).
 */
import { useEffect, useId, useRef, useState, type FormEvent, type RefObject } from 'react';
import { authClient, type Profile } from '../../lib/browser/auth/client.ts';
import { toast } from '../../lib/browser/toast.ts';
import { INPUT_CLASS } from '../forms/TextField.tsx';
import { api, call } from '../../lib/browser/api.ts';
import { button, card, failed, signOutAndLeave } from './account-ui.ts';
import { MemberFeedCard } from './MemberFeedCard.tsx';

const LANGUAGES: { value: Profile['language']; label: string }[] = [
  { value: 'en', label: 'English' },
  { value: 'es', label: 'Spanish' },
  { value: 'fr', label: 'French' },
];

export function AccountSettings({ token, profile, onSaved }: { token: string; profile: Profile | null; onSaved: (p: Profile) => void }) {
  const [language, setLanguage] = useState<Profile['language']>(profile?.language ?? 'en');
  // The server says what applies: the member's choice, or what their level includes (subscriber and premium).
  const shown = profile?.newsletter ?? false;
  const [newsletter, setNewsletter] = useState(shown);
  // The community's reply emails, as the server holds them (null until read) and as the box shows them.
  const [replyMails, setReplyMails] = useState<boolean | null>(null);
  const [replies, setReplies] = useState(true);
  const [saving, setSaving] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();

  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    call((o) => api.communityNotifications.settings.$get({}, o), { token, signal })
      .then((result) => {
        if (!result.ok) return;
        setReplyMails(result.data.notifications);
        setReplies(result.data.notifications);
      })
      .catch(() => undefined);
    return () => controller.abort();
  }, [token]);

  async function saveSettings(event: FormEvent) {
    event.preventDefault();
    setSaving(true);
    // The newsletter only when the member changed it: saving the language alone must not turn the
    // level's default into a fixed choice (an upgrade would then not bring the newsletter).
    const body = newsletter === shown ? { language } : { language, newsletter };
    const result = await call((o) => api.users.me.$patch({ json: body }, o), { token });
    // The reply emails only when the member changed them (their own API).
    const mails =
      replyMails === null || replies === replyMails
        ? undefined
        : await call((o) => api.communityNotifications.settings.$put({ json: { notifications: replies } }, o), { token });
    setSaving(false);
    if (!result.ok || (mails && !mails.ok)) return failed();
    onSaved(result.data);
    if (mails?.ok) setReplyMails(mails.data.notifications);
    toast({ title: 'Settings saved', description: 'Your language and email preferences have been saved.' });
  }

  async function deleteAccount() {
    setDeleting(true);
    const result = await call((o) => api.users.me.$delete({}, o), { token });
    if (!result.ok) {
      setDeleting(false);
      dialog.current?.close();
      return failed('We could not delete your account. Please try again or contact support.');
    }
    // The server has deleted the account and its sessions; forget the local session too.
    await signOutAndLeave(() => authClient().auth.signOut({ scope: 'local' }));
  }

  return (
    <div className="max-w-xl space-y-6">
      <form onSubmit={saveSettings} className={`${card} space-y-4`} aria-label="Settings">
        <LanguageField id={id} language={language} onLanguage={setLanguage} />
        <EmailChoices
          id={id}
          newsletter={newsletter}
          replies={replies}
          repliesKnown={replyMails !== null}
          onNewsletter={setNewsletter}
          onReplies={setReplies}
        />
        <button type="submit" disabled={saving} className={`${button} bg-brand-600 text-white hover:bg-brand-700`}>
          Save Settings
        </button>
      </form>

      <MemberFeedCard className={card} />

      <DangerZone id={id} dialog={dialog} deleting={deleting} onDelete={() => void deleteAccount()} />
    </div>
  );
}

type LanguageFieldProps = { id: string; language: Profile['language']; onLanguage: (language: Profile['language']) => void };

/** The language of the member's emails. */
function LanguageField({ id, language, onLanguage }: LanguageFieldProps) {
  return (
    <div>
      <label htmlFor={`${id}-language`} className="block text-sm font-medium text-slate-700">
        Language
      </label>
      <select
        id={`${id}-language`}
        value={language}
        onChange={(e) => onLanguage(e.target.value as Profile['language'])}
        className={INPUT_CLASS}
      >
        {LANGUAGES.map((l) => (
          <option key={l.value} value={l.value}>
            {l.label}
          </option>
        ))}
      </select>
      <p className="mt-1 text-sm text-slate-500">The language of the emails we send you.</p>
    </div>
  );
}

type EmailChoicesProps = {
  id: string;
  newsletter: boolean;
  replies: boolean;
  /** Whether the reply emails' setting has been read (the box waits for it). */
  repliesKnown: boolean;
  onNewsletter: (on: boolean) => void;
  onReplies: (on: boolean) => void;
};

/** The members' newsletter and the community's reply emails, each on or off. */
function EmailChoices({ id, newsletter, replies, repliesKnown, onNewsletter, onReplies }: EmailChoicesProps) {
  return (
    <>
      <div className="flex items-start gap-3">
        <input
          id={`${id}-newsletter`}
          type="checkbox"
          checked={newsletter}
          onChange={(e) => onNewsletter(e.target.checked)}
          className="mt-1 h-4 w-4 rounded border-slate-300 text-brand-600 focus:ring-brand-500"
        />
        <div>
          <label htmlFor={`${id}-newsletter`} className="text-sm font-medium text-slate-700">
            Email me the members&apos; newsletter
          </label>
          <p className="text-sm text-slate-500">
            One issue a month, in full for your plan.{' '}
            <a href="/newsletter" className="font-medium text-brand-700 underline">
              Past issues
            </a>
          </p>
        </div>
      </div>
      <div className="flex items-start gap-3">
        <input
          id={`${id}-replies`}
          type="checkbox"
          checked={replies}
          disabled={!repliesKnown}
          onChange={(e) => onReplies(e.target.checked)}
          className="mt-1 h-4 w-4 rounded border-slate-300 text-brand-600 focus:ring-brand-500"
        />
        <div>
          <label htmlFor={`${id}-replies`} className="text-sm font-medium text-slate-700">
            Email me when someone replies in a community thread I follow
          </label>
          <p className="text-sm text-slate-500">
            Threads you started or replied in, at most one email per thread every 15 minutes. Mute a single thread from its page.
          </p>
        </div>
      </div>
    </>
  );
}

type DangerZoneProps = { id: string; dialog: RefObject<HTMLDialogElement | null>; deleting: boolean; onDelete: () => void };

/** Delete Account, and the dialog that confirms it. */
function DangerZone({ id, dialog, deleting, onDelete }: DangerZoneProps) {
  return (
    <>
      <div className={`${card} ring-red-200`}>
        <h2 className="text-lg font-semibold text-red-700">Danger Zone</h2>
        <p className="mt-2 text-sm text-slate-700">Deleting your account removes all your content and data. This cannot be undone.</p>
        <button
          type="button"
          onClick={() => dialog.current?.showModal()}
          className={`${button} mt-4 bg-red-600 text-white hover:bg-red-700`}
        >
          Delete Account
        </button>
      </div>

      <dialog ref={dialog} aria-labelledby={`${id}-confirm`} className="rounded-2xl p-6 shadow-xl backdrop:bg-slate-900/50">
        <h2 id={`${id}-confirm`} className="text-lg font-semibold text-slate-900">
          Delete your account?
        </h2>
        <p className="mt-2 max-w-sm text-sm text-slate-700">
          Your account, profile, newsletter subscription and download requests will be deleted for good.
        </p>
        <div className="mt-6 flex justify-end gap-2">
          <button
            type="button"
            onClick={() => dialog.current?.close()}
            disabled={deleting}
            className={`${button} ring-1 ring-inset ring-slate-300`}
          >
            Cancel
          </button>
          <button type="button" onClick={onDelete} disabled={deleting} className={`${button} bg-red-600 text-white hover:bg-red-700`}>
            {deleting ? 'Deleting…' : 'Delete my account'}
          </button>
        </div>
      </dialog>
    </>
  );
}
