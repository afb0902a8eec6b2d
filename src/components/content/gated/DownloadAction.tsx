/**
 * The download area of tool and market details (spec point 4: downloads are gated). Free tools keep
 * the lead dialog for anyone (spec point 2 "Tools"), and signed-in members may also download at once.
 * Every other tool and every market item shows the gate card without access, else a Download button
 * that asks the server for a short-lived signed link and follows it. A priced market item also
 * opens to its buyers whatever their level: members it does not open for (and visitors) get the
 * Buy button next to the gate card, or alone when no plan includes it (a priced item at the free level).
 * Which of these a type gets comes from its definition (`download`, `purchasable`), handed over as
 * the `download` prop: plain data, so this island never bundles the registry.
 */
import { lazy, Suspense, useState } from 'react';
import type { AccessLevel } from '#shared/access.ts';
import type { DownloadInfo, PurchasableType } from '#shared/content/registry.ts';
import { itemDownloadLink, startDownload } from '../../../lib/browser/api.ts';
import { isPriced, isPurchaseOnly } from '#shared/payments/purchasable.ts';
import { toast } from '../../../lib/browser/toast.ts';
import { PurchaseOffer } from '../../payments/BuyButton.tsx';
import { useOwnership } from '../../payments/use-ownership.ts';
import { GateCard } from './GateCard.tsx';
import { guessAccess, useViewer, type AccessGuess, type ViewerState } from './use-viewer.ts';
import type { Ownership } from '../../payments/use-ownership.ts';

const LeadDialog = lazy(() => import('../LeadDialog.tsx').then((m) => ({ default: m.LeadDialog })));

export interface DownloadActionProps {
  /** The item's type's download facts (`downloadInfo(type)` from the registry). */
  download: DownloadInfo;
  slug: string;
  title: string;
  accessLevel: AccessLevel;
  /** Items of a purchasable type: the price in dollars (absent or 0: free). */
  price?: number | undefined;
}

/** An item of a purchasable type that has a price. */
interface Sale {
  type: PurchasableType;
  price: number;
}

const PRIMARY = 'min-h-11 rounded-lg bg-brand-600 px-5 py-2.5 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-60';
const SECONDARY = 'min-h-11 rounded-lg px-5 py-2.5 text-sm font-semibold text-brand-700 ring-1 ring-inset ring-brand-200 hover:bg-brand-50';

/** Download at once; the server's 401/403 turns the button into the gate card. */
function DirectDownload({
  download: info,
  slug,
  onRefused,
}: Pick<DownloadActionProps, 'download' | 'slug'> & { onRefused: (signedIn: boolean) => void }) {
  const [busy, setBusy] = useState(false);
  const [missing, setMissing] = useState<string | null>(null);
  async function download() {
    setBusy(true);
    const result = await startDownload(itemDownloadLink(info.apiSegment, slug));
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

export default function DownloadAction(props: DownloadActionProps) {
  const viewer = useViewer();
  const { download, price, accessLevel } = props;
  // Only a type sold one at a time opens to its buyers, and only an item of it that has a price.
  const sale = download.purchasable && isPriced(price) ? { type: download.type, price } : null;
  if (sale) return <SoldDownload {...props} viewer={viewer} sale={sale} />;
  return <DownloadArea {...props} viewer={viewer} sale={null} guess={guessAccess(viewer, accessLevel)} ownership="not-owned" />;
}

/** An item on sale: its buyers are looked up only for a member whose level does not open it. */
function SoldDownload({ viewer, sale, ...props }: DownloadActionProps & { viewer: ViewerState; sale: Sale }) {
  // The purchase rule: a priced item at the free level is in no plan, so only staff open it by level.
  const guess = guessAccess(viewer, { accessLevel: props.accessLevel, price: sale.price });
  const ownership = useOwnership(viewer, sale.type, props.slug, viewer.status === 'signed-in' && guess !== 'allowed');
  return <DownloadArea {...props} viewer={viewer} sale={sale} guess={guess} ownership={ownership} />;
}

interface AreaProps extends DownloadActionProps {
  viewer: ViewerState;
  sale: Sale | null;
  guess: AccessGuess;
  ownership: Ownership;
}

function DownloadArea({ download, slug, title, accessLevel, viewer, sale, guess, ownership }: AreaProps) {
  // A refusal holds for the session it was given to: signing in, a new level or a purchase asks again.
  const sessionKey = `${viewer.status === 'signed-in' ? viewer.userId : ''}:${guess}:${ownership}`;
  const [refusal, setRefusal] = useState<{ sessionKey: string; signedIn: boolean } | null>(null);
  const refused = refusal?.sessionKey === sessionKey ? refusal : null;
  const onRefused = (signedIn: boolean) => setRefusal({ sessionKey, signedIn });
  const [leadOpen, setLeadOpen] = useState(false);
  const offersLead = download.leadWhenFree && accessLevel === 'free';

  if (guess === 'loading' || ownership === 'loading')
    return <div aria-hidden="true" className="h-11 w-40 animate-pulse rounded-lg bg-slate-200" />;

  if (offersLead) {
    const member = viewer.status === 'signed-in' && !refused;
    return (
      <div className="flex flex-wrap items-center gap-3">
        {member && <DirectDownload download={download} slug={slug} onRefused={onRefused} />}
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
    if (!sale) return <GateCard level={accessLevel} what="download" signedIn={signedIn} />;
    const gate = isPurchaseOnly(accessLevel, sale.price) ? null : <GateCard level={accessLevel} what="download" signedIn={signedIn} />;
    return <PurchaseOffer gate={gate} type={sale.type} slug={slug} price={sale.price} signedIn={viewer.status === 'signed-in'} />;
  }
  return (
    <div className="flex flex-wrap items-center gap-3">
      <DirectDownload download={download} slug={slug} onRefused={onRefused} />
      {ownership === 'owned' && <p className="text-sm font-medium text-emerald-700">You bought this item.</p>}
    </div>
  );
}
