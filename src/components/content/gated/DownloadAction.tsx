/**
 * The download area of tool and market details (spec point 4: downloads are gated). Free tools keep
 * the lead dialog for anyone (spec point 2 "Tools"), and signed-in members may also download at once.
 * Every other tool and every market item shows the gate card without access, else a Download button
 * that asks the server for a short-lived signed link and follows it. A priced market item also
 * opens to its buyers whatever their level: members it does not open for (and visitors) get the
 * Buy button next to the gate card, or alone when no plan includes it (a priced item at the free level).
 */
import { lazy, Suspense, useState } from 'react';
import type { AccessLevel } from '#shared/access.ts';
import { itemDownloadLink, startDownload } from '../../../lib/browser/api.ts';
import { isPriced, isPurchaseOnly } from '#shared/payments/purchasable.ts';
import { toast } from '../../../lib/browser/toast.ts';
import { PurchaseOffer } from '../../payments/BuyButton.tsx';
import { useOwnership } from '../../payments/use-ownership.ts';
import { GateCard } from './GateCard.tsx';
import { guessAccess, useViewer } from './use-viewer.ts';

const LeadDialog = lazy(() => import('../LeadDialog.tsx').then((m) => ({ default: m.LeadDialog })));

export interface DownloadActionProps {
  type: 'tool' | 'market';
  slug: string;
  title: string;
  accessLevel: AccessLevel;
  /** Market items: the price in dollars (absent or 0: free). */
  price?: number | undefined;
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

export default function DownloadAction({ type, slug, title, accessLevel, price }: DownloadActionProps) {
  const viewer = useViewer();
  const priced = type === 'market' && isPriced(price);
  // The purchase rule: a priced item at the free level is in no plan, so only staff open it by level.
  const guess = guessAccess(viewer, { accessLevel, price: priced ? price : undefined });
  const ownership = useOwnership(viewer, 'market', slug, priced && viewer.status === 'signed-in' && guess !== 'allowed');
  // A refusal holds for the session it was given to: signing in, a new level or a purchase asks again.
  const sessionKey = `${viewer.status === 'signed-in' ? viewer.userId : ''}:${guess}:${ownership}`;
  const [refusal, setRefusal] = useState<{ sessionKey: string; signedIn: boolean } | null>(null);
  const refused = refusal?.sessionKey === sessionKey ? refusal : null;
  const onRefused = (signedIn: boolean) => setRefusal({ sessionKey, signedIn });
  const [leadOpen, setLeadOpen] = useState(false);
  const freeTool = type === 'tool' && accessLevel === 'free';

  if (guess === 'loading' || ownership === 'loading') return <div aria-hidden="true" className="h-11 w-40 animate-pulse rounded-lg bg-slate-200" />;

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

  // A member who bought it, or whose purchases could not be read, asks the server, which decides.
  const mayOwn = ownership === 'owned' || ownership === 'unknown';
  if (refused || guess === 'signed-out' || (guess === 'denied' && !mayOwn)) {
    const signedIn = refused ? refused.signedIn : guess === 'denied';
    if (!priced) return <GateCard level={accessLevel} what="download" signedIn={signedIn} />;
    const gate = isPurchaseOnly(accessLevel, price) ? null : <GateCard level={accessLevel} what="download" signedIn={signedIn} />;
    return <PurchaseOffer gate={gate} type="market" slug={slug} price={price!} signedIn={viewer.status === 'signed-in'} />;
  }
  return (
    <div className="flex flex-wrap items-center gap-3">
      <DirectDownload type={type} slug={slug} onRefused={onRefused} />
      {ownership === 'owned' && <p className="text-sm font-medium text-emerald-700">You bought this item.</p>}
    </div>
  );
}
