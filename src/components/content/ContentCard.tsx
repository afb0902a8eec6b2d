import { lazy, Suspense, useState } from 'react';
import type { PublicItem } from '#shared/content/registry.ts';
import { formatInZone } from '#shared/events/format.ts';
import { hasEnded } from '#shared/events/schedule.ts';
import { formatDate, skillLabel } from '#shared/format.ts';
import { priceLabel } from '#shared/payments/purchasable.ts';
import { AccessBadge } from './AccessBadge.tsx';
import { CardImage } from './CardImage.tsx';
import { TagBadges } from './TagBadges.tsx';

export interface ContentCardProps {
  item: PublicItem;
  /** The item's detail page (the caller knows its type's path: this island never imports the registry). */
  href: string;
  activeTag?: string;
  onTagSelect?: (tag: string) => void;
}

function Meta({ item }: { item: PublicItem }) {
  switch (item.type) {
    case 'blog':
      return (
        <>
          <span>{item.author}</span>
          <span aria-hidden="true">·</span>
          <time dateTime={item.publishedDate}>{formatDate(item.publishedDate)}</time>
        </>
      );
    case 'course':
      return (
        <>
          <span>{skillLabel(item.skillLevel)}</span>
          <span aria-hidden="true">·</span>
          <span>{item.duration}</span>
        </>
      );
    case 'tool':
      return (
        <span>
          Updated <time dateTime={item.updatedAt}>{formatDate(item.updatedAt)}</time>
        </span>
      );
    case 'market':
      return (
        <>
          <span className="font-semibold text-ink" data-testid="card-price">
            {priceLabel(item.accessLevel, item.price)}
          </span>
          <span aria-hidden="true">·</span>
          <span>{item.fileType}</span>
        </>
      );
    case 'event':
      return (
        <>
          <time dateTime={item.startsAt} data-testid="card-start">
            {formatInZone(item.startsAt, item.timeZone)}
          </time>
          <span aria-hidden="true">·</span>
          <span>{item.format === 'online' ? 'Online' : 'In person'}</span>
        </>
      );
  }
}

/** An event's state on its card, as of now: Cancelled, or Past (with "Recording available" when there is one). */
function EventState({ item }: { item: Extract<PublicItem, { type: 'event' }> }) {
  const chip = 'relative z-10 rounded-full px-2.5 py-0.5 text-xs font-semibold';
  if (item.cancelled) return <span className={`${chip} bg-red-100 text-red-800`}>Cancelled</span>;
  if (!hasEnded(item)) return null;
  return (
    <span className="flex flex-wrap justify-end gap-1.5">
      <span className={`${chip} bg-slate-100 text-slate-700`}>Past</span>
      {item.hasRecording && <span className={`${chip} bg-emerald-100 text-emerald-800`}>Recording available</span>}
    </span>
  );
}

const LeadDialog = lazy(() => import('./LeadDialog.tsx').then((m) => ({ default: m.LeadDialog })));

/** Download Free for free tools (opens the lead dialog); members' tools link to their page. */
function ToolAction({ item }: { item: Extract<PublicItem, { type: 'tool' }> }) {
  const [open, setOpen] = useState(false);
  if (item.accessLevel !== 'free') {
    return <span className="relative z-10 text-xs font-medium text-slate-500">Members only</span>;
  }
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="relative z-10 rounded-lg bg-brand-600 px-3 py-1.5 text-xs font-semibold text-white hover:bg-brand-700"
      >
        Download Free
      </button>
      {open && (
        <Suspense fallback={null}>
          <LeadDialog toolId={item.slug} toolTitle={item.title} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}

/** A list card: the whole card links to the detail page; tag chips stay clickable above the link. */
export function ContentCard({ item, href, activeTag, onTagSelect }: ContentCardProps) {
  return (
    <article
      data-testid="content-card"
      className="group relative flex flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm transition-shadow hover:shadow-md focus-within:ring-2 focus-within:ring-brand-600"
    >
      <CardImage media={item.media} />
      <div className="flex flex-1 flex-col gap-3 p-5">
        <div className="flex items-center justify-between gap-2">
          <AccessBadge level={item.accessLevel} price={item.type === 'market' || item.type === 'course' ? item.price : undefined} />
          {item.type === 'tool' && <ToolAction item={item} />}
          {item.type === 'event' && <EventState item={item} />}
        </div>
        <h3 className="text-lg font-semibold leading-snug text-ink">
          <a href={href} className="after:absolute after:inset-0 focus:outline-none">
            {item.title}
          </a>
        </h3>
        <p className="line-clamp-2 text-sm text-slate-600" data-testid="card-description">
          {item.description}
        </p>
        <TagBadges tags={item.tags} active={activeTag} onSelect={onTagSelect} />
        <p className="mt-auto flex flex-wrap items-center gap-1.5 pt-2 text-xs text-slate-500">
          <Meta item={item} />
        </p>
      </div>
    </article>
  );
}
