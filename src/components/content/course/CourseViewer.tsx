/**
 * The course viewer (spec point 2 "Courses"): Overview and Current Lesson tabs and the curriculum
 * panel. The current section and lesson start at the first, every section starts expanded, picking
 * a lesson opens the Current Lesson tab, and Previous / Next move across sections, disabled at the
 * ends. Server-rendered (client:load) so crawlers read the curriculum; the first client render
 * matches it, and the session, the `?lesson=` link and progress are applied after hydration.
 * Beyond the spec: members keep progress (complete marks, a bar, resume at the last lesson), and the
 * URL names the current lesson so a reload or a shared link opens it (a link wins over resume).
 * A course with a price can also be bought outright: its buyers open the lessons whatever their
 * level, and visitors and members it does not open for see the Buy button above the tabs. A priced
 * course at the free level is in no plan (the purchase rule): only its buyers and staff open it.
 */
import { useCallback, useEffect, useId, useMemo, useRef, useState, useSyncExternalStore, type KeyboardEvent } from 'react';
import type { AccessLevel } from '#shared/access.ts';
import { fetchLesson } from '../../../lib/browser/api.ts';
import { isPriced, isPurchaseOnly, type PricedItem } from '#shared/payments/purchasable.ts';
import { PurchaseOffer } from '../../payments/BuyButton.tsx';
import { useOwnership } from '../../payments/use-ownership.ts';
import { ProgressBar } from '../gated/ProgressBar.tsx';
import { useGatedResource } from '../gated/use-gated-resource.ts';
import { guessAccess, useViewer } from '../gated/use-viewer.ts';
import { findLesson, firstLessonId, neighbours, type OutlineSection } from './course-nav.ts';
import { CurriculumPanel } from './CurriculumPanel.tsx';
import { LessonPanel } from './LessonPanel.tsx';
import { OverviewPanel } from './OverviewPanel.tsx';
import { useCourseProgress } from './use-course-progress.ts';

export interface CourseViewerProps {
  slug: string;
  accessLevel: AccessLevel;
  /** Display label, e.g. "Beginner". */
  skillLevel: string;
  duration: string;
  sections: OutlineSection[];
  /** One-time price in dollars; absent or 0: plans only. */
  price?: number | undefined;
}

type Tab = 'overview' | 'lesson';

const TABS: { id: Tab; label: string }[] = [
  { id: 'overview', label: 'Overview' },
  { id: 'lesson', label: 'Current Lesson' },
];

/** The page's address at load time; the viewer rewrites it as lessons change. */
let loadedQuery: string | undefined;
const subscribeNothing = () => () => undefined;

/** The lesson named by the `?lesson=` the page was opened with (null on the server and while hydrating). */
function useLinkedLesson(sections: readonly OutlineSection[]): string | null {
  const wanted = useSyncExternalStore(
    subscribeNothing,
    () => new URLSearchParams((loadedQuery ??= window.location.search)).get('lesson'),
    () => null,
  );
  return wanted && findLesson(sections, wanted) ? wanted : null;
}

export default function CourseViewer({ slug, accessLevel, skillLevel, duration, sections, price }: CourseViewerProps) {
  const id = useId();
  const viewer = useViewer();
  const { required, offer, ownership } = useCoursePurchase(viewer, slug, accessLevel, price);
  const [tabChoice, setTabChoice] = useState<Tab | null>(null);
  const { expanded, toggleSection, expandSection } = useExpandedSections(sections);
  const top = useRef<HTMLDivElement>(null);
  const { progress, visit, setComplete } = useCourseProgress(slug, required);
  const { linked, currentId, fromStart, setChosen } = useCurrentLesson(sections, progress);
  const tab: Tab = tabChoice ?? (linked ? 'lesson' : 'overview');

  const lesson = useGatedResource({
    required,
    // While purchases load, nothing is asked (and no gate flashes for a buyer).
    resourceKey: tab === 'lesson' && ownership !== 'loading' ? currentId : null,
    load: (lessonId, signal) => fetchLesson(slug, lessonId, signal),
  });

  const place = findLesson(sections, currentId);
  const { previous, next } = neighbours(sections, currentId);
  const completed = useMemo(() => new Set(progress?.completed ?? []), [progress]);
  const total = sections.reduce((n, s) => n + s.lessons.length, 0);

  useLastLesson(tab === 'lesson' ? currentId : null, visit);

  const go = useCallback(
    (lessonId: string) => {
      setChosen(lessonId);
      setTabChoice('lesson');
      const sectionId = sections[findLesson(sections, lessonId)?.sectionIndex ?? -1]?.id;
      if (sectionId) expandSection(sectionId);
      // The curriculum sits below the lesson on small screens, and Next at the end of a long lesson.
      if (top.current && top.current.getBoundingClientRect().top < 0) top.current.scrollIntoView({ block: 'start' });
    },
    [sections, setChosen, expandSection],
  );

  return (
    <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_20rem] lg:items-start">
      <div ref={top} className="flex min-w-0 scroll-mt-24 flex-col gap-6">
        {offer && isPriced(price) && (
          <PurchaseOffer gate={null} type="course" slug={slug} price={price} signedIn={viewer.status === 'signed-in'} />
        )}
        {progress && <ProgressBar completed={progress.completed.length} total={progress.total} />}
        <CourseTabs id={id} tab={tab} onTab={setTabChoice} />
        <div role="tabpanel" id={`${id}-overview-panel`} aria-labelledby={`${id}-overview`} hidden={tab !== 'overview'} tabIndex={0}>
          <OverviewPanel
            skillLevel={skillLevel}
            duration={duration}
            accessLevel={accessLevel}
            soldOnly={isPurchaseOnly(accessLevel, price)}
            sections={sections}
            current={place}
            resuming={!fromStart}
            onOpenLesson={() => setTabChoice('lesson')}
          />
        </div>
        <div role="tabpanel" id={`${id}-lesson-panel`} aria-labelledby={`${id}-lesson`} hidden={tab !== 'lesson'} tabIndex={0}>
          <LessonPanel
            courseSlug={slug}
            accessLevel={accessLevel}
            soldOnly={isPurchaseOnly(accessLevel, price)}
            place={place}
            total={total}
            lesson={lesson.state}
            onRetry={lesson.retry}
            previous={previous}
            next={next}
            onGo={go}
            complete={progress && currentId ? completed.has(currentId) : undefined}
            onComplete={(done) => currentId && void setComplete(currentId, done)}
          />
        </div>
      </div>
      <aside className="lg:sticky lg:top-24 lg:max-h-[calc(100vh-7rem)] lg:overflow-y-auto">
        <CurriculumPanel
          sections={sections}
          currentId={currentId}
          completed={completed}
          expanded={expanded}
          onToggleSection={toggleSection}
          onPick={go}
        />
      </aside>
    </div>
  );
}

type Viewer = ReturnType<typeof useViewer>;

/** What the course asks of the viewer (a buyer opens every lesson), and whether to offer it for sale. */
function useCoursePurchase(viewer: Viewer, slug: string, accessLevel: AccessLevel, price: number | undefined) {
  // The purchase rule: a priced course at the free level is sold, never given (by level only staff open it).
  const rule: PricedItem = { accessLevel, price };
  const byLevel = guessAccess(viewer, rule);
  const ownership = useOwnership(viewer, 'course', slug, isPriced(price) && viewer.status === 'signed-in' && byLevel !== 'allowed');
  // A buyer opens every lesson whatever their level (the server checks the purchase).
  const required: AccessLevel | PricedItem = ownership === 'owned' ? 'free' : rule;
  const offer = isPriced(price) && (byLevel === 'signed-out' || (byLevel === 'denied' && ownership === 'not-owned'));
  return { required, offer, ownership };
}

/**
 * The lesson shown: the member's choice, else a link naming a lesson, else where they left off, else
 * the first lesson. The URL names it once it is not the starting one.
 */
function useCurrentLesson(sections: readonly OutlineSection[], progress: ReturnType<typeof useCourseProgress>['progress']) {
  const linked = useLinkedLesson(sections);
  const [chosen, setChosen] = useState<string | null>(null);
  const resume = progress?.lastLessonId && findLesson(sections, progress.lastLessonId) ? progress.lastLessonId : null;
  const currentId = chosen ?? linked ?? resume ?? firstLessonId(sections);
  const fromStart = !chosen && !linked && !resume;

  useEffect(() => {
    if (fromStart || !currentId) return;
    const url = new URL(window.location.href);
    url.searchParams.set('lesson', currentId);
    if (url.href !== window.location.href) window.history.replaceState(window.history.state, '', url);
  }, [currentId, fromStart]);

  return { linked, currentId, fromStart, setChosen };
}

/** The lesson on screen (`shownId`) is the member's last lesson. */
function useLastLesson(shownId: string | null, visit: (lessonId: string) => void) {
  useEffect(() => {
    if (shownId) visit(shownId);
  }, [shownId, visit]);
}

/** The curriculum's open sections (every one at first), one toggled, or one opened. */
function useExpandedSections(sections: readonly OutlineSection[]) {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set(sections.map((s) => s.id)));
  const toggleSection = useCallback((sectionId: string) => {
    setExpanded((e) => {
      const copy = new Set(e);
      if (!copy.delete(sectionId)) copy.add(sectionId);
      return copy;
    });
  }, []);
  const expandSection = useCallback((sectionId: string) => setExpanded((e) => (e.has(sectionId) ? e : new Set(e).add(sectionId))), []);
  return { expanded, toggleSection, expandSection };
}

/** Overview and Current Lesson, with the arrow, Home and End keys of a tab list. */
function CourseTabs({ id, tab, onTab }: { id: string; tab: Tab; onTab: (tab: Tab) => void }) {
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);

  function onTabKey(event: KeyboardEvent<HTMLButtonElement>) {
    const at = TABS.findIndex((t) => t.id === tab);
    const moves: Record<string, number> = { ArrowRight: at + 1, ArrowLeft: at - 1 + TABS.length, Home: 0, End: TABS.length - 1 };
    if (!Object.hasOwn(moves, event.key)) return;
    event.preventDefault();
    const index = moves[event.key]! % TABS.length;
    onTab(TABS[index]!.id);
    tabRefs.current[index]?.focus();
  }

  return (
    <div role="tablist" aria-label="Course" className="flex gap-2 border-b border-slate-200">
      {TABS.map((t, i) => (
        <button
          key={t.id}
          ref={(el) => {
            tabRefs.current[i] = el;
          }}
          type="button"
          role="tab"
          id={`${id}-${t.id}`}
          aria-selected={tab === t.id}
          aria-controls={`${id}-${t.id}-panel`}
          tabIndex={tab === t.id ? 0 : -1}
          onClick={() => onTab(t.id)}
          onKeyDown={onTabKey}
          className={`-mb-px border-b-2 px-4 py-2 text-sm font-semibold ${tab === t.id ? 'border-brand-600 text-brand-700' : 'border-transparent text-slate-600 hover:text-ink'}`}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}
