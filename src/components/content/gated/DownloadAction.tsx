/**
 * The download area of tool and market details (spec point 4: downloads are gated). Free tools keep
 * the lead dialog for anyone (spec point 2 "Tools"), and signed-in members may also download at once.
 * Every other tool and every market item shows the gate card without access, else a Download button
 * that asks the server for a short-lived signed link and follows it. Until payments exist, a priced
 * market item downloads at the level it names.
 */
import { lazy, Suspense, useState } from 'react';
import type { AccessLevel } from '../../../lib/access.ts';
import { itemDownloadLink, startDownload } from '../../../lib/content/gated-client.ts';
import { toast } from '../../../lib/toast.ts';
import { GateCard } from './GateCard.tsx';
import { guessAccess, useViewer } from './use-viewer.ts';

const LeadDialog = lazy(() => import('../LeadDialog.tsx').then((m) => ({ default: m.LeadDialog })));

export interface DownloadActionProps {
  type: 'tool' | 'market';
  slug: string;
  title: string;
  accessLevel: AccessLevel;
}

const PRIMARY = 'min-h-11 rounded-lg bg-brand-600 px-5 py-2.5 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-60';
const SECONDARY = 'min-h-11 rounded-lg px-5 py-2.5 text-sm font-semibold text-brand-700 ring-1 ring-inset ring-brand-200 hover:bg-brand-50';

/** Download at once; the server's 401/403 turns the button into the gate card. */
function DirectDownload({ type, slug, onRefused }: { type: DownloadActionProps['type']; slug: string; onRefused: (signedIn: boolean) => void }) {
  const [busy, setBusy] = useState(false);
  const [missing, setMissing] = useState<string | null>(null);
  async function download() {
    setBusy(true);
    const result = await startDownload(itemDownloadLink(type === 'tool' ? 'tools' : 'market', slug));
    setBusy(false);
    if (result.ok) return;
    if (result.kind === 'signed-out' || result.kind === 'forbidden') onRefused(result.kind === 'forbidden');
    else if (result.kind === 'not-found') setMissing(result.message);
    else toast({ title: 'Error', description: 'We could not start the download. Please try again.', variant: 'destructive' });
  }
  return (
    <>
      <button type="button" onClick={() => void download()} disabled={busy} className={PRIMARY}>
        {busy ? 'Preparing…' : 'Download'}
      </button>
      {missing && (
        <p role="status" className="basis-full text-sm text-slate-600">
          {missing}
        </p>
      )}
    </>
  );
}

export default function DownloadAction({ type, slug, title, accessLevel }: DownloadActionProps) {
  const viewer = useViewer();
  const guess = guessAccess(viewer, accessLevel);
  // A refusal holds for the session it was given to: signing in or a new level asks again.
  const sessionKey = `${viewer.status === 'signed-in' ? viewer.userId : ''}:${guess}`;
  const [refusal, setRefusal] = useState<{ sessionKey: string; signedIn: boolean } | null>(null);
  const refused = refusal?.sessionKey === sessionKey ? refusal : null;
  const onRefused = (signedIn: boolean) => setRefusal({ sessionKey, signedIn });
  const [leadOpen, setLeadOpen] = useState(false);
  const freeTool = type === 'tool' && accessLevel === 'free';

  if (guess === 'loading') return <div aria-hidden="true" className="h-11 w-40 animate-pulse rounded-lg bg-slate-200" />;

  if (freeTool) {
    const member = viewer.status === 'signed-in' && !refused;
    return (
      <div className="flex flex-wrap items-center gap-3">
        {member && <DirectDownload type={type} slug={slug} onRefused={onRefused} />}
        <button type="button" onClick={() => setLeadOpen(true)} className={member ? SECONDARY : PRIMARY}>
          {member ? 'Email me the link' : 'Download Free'}
        </button>
        {leadOpen && (
          <Suspense fallback={null}>
            <LeadDialog toolId={slug} toolTitle={title} onClose={() => setLeadOpen(false)} />
          </Suspense>
        )}
      </div>
    );
  }

  if (refused || guess === 'signed-out' || guess === 'denied') {
    return <GateCard level={accessLevel} what="download" signedIn={refused ? refused.signedIn : guess === 'denied'} />;
  }
  return (
    <div className="flex flex-wrap items-center gap-3">
      <DirectDownload type={type} slug={slug} onRefused={onRefused} />
    </div>
  );
}
