/**
 * The Moderation tab (editors and admins; the server checks every call): the queue of held and
 * reported posts, the moderation log, and for admins the community's categories. In a chunk of its
 * own (AdminDashboard loads it when the tab opens).
 */
import { useId, useState } from 'react';
import { TabList } from './staff-page.tsx';
import { ModerationCategories } from './ModerationCategories.tsx';
import { ModerationLog } from './ModerationLog.tsx';
import { ModerationQueue } from './ModerationQueue.tsx';

type Part = 'queue' | 'log' | 'categories';
const PARTS: { id: Part; label: string }[] = [
  { id: 'queue', label: 'Queue' },
  { id: 'log', label: 'Log' },
  { id: 'categories', label: 'Categories' },
];

export function ModerationPanel({ admin }: { admin: boolean }) {
  const parts = admin ? PARTS : PARTS.filter((p) => p.id !== 'categories');
  const [part, setPart] = useState<Part>('queue');
  const ids = useId();
  return (
    <section aria-labelledby={`${ids}-title`} className="space-y-5">
      <h2 id={`${ids}-title`} className="text-2xl font-bold text-slate-900">
        Moderation
      </h2>
      <TabList label="Moderation sections" tabs={parts} current={part} onSelect={setPart} idPrefix={ids} />
      <div role="tabpanel" id={`${ids}-panel`} aria-labelledby={`${ids}-${part}`}>
        {part === 'queue' && <ModerationQueue />}
        {part === 'log' && <ModerationLog />}
        {part === 'categories' && admin && <ModerationCategories />}
      </div>
    </section>
  );
}
