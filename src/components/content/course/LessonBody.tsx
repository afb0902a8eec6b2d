/**
 * One lesson's gated parts as the server answered them: its text (sanitised HTML), its media (image,
 * video with controls, PDF link; a failed image becomes the placeholder, a video the browser cannot
 * play a download link) and its files as buttons that ask for a fresh signed link when clicked.
 */
import { useState } from 'react';
import { lessonDownloadLink, startDownload, type LessonContent, type LessonMedia } from '../../../lib/browser/api.ts';
import { toast } from '../../../lib/browser/toast.ts';
import '../detail/prose.css';

const PLACEHOLDER = '/images/placeholder.svg';

function MediaTile({ media, title, index }: { media: LessonMedia; title: string; index: number }) {
  const [failed, setFailed] = useState(false);
  const label = media.alt ?? `${title} ${media.type} ${index + 1}`;
  return (
    <figure className="overflow-hidden rounded-2xl border border-slate-200 bg-slate-100" data-testid={`lesson-media-${media.type}`}>
      <div className="relative aspect-video">
        {media.type === 'image' && (
          <img
            src={failed ? PLACEHOLDER : media.url}
            alt={label}
            loading="lazy"
            decoding="async"
            width="1280"
            height="720"
            onError={() => setFailed(true)}
            className="h-full w-full object-cover"
          />
        )}
        {media.type === 'video' &&
          (failed ? (
            <p className="absolute inset-0 grid place-items-center p-6 text-center text-sm text-slate-700">
              <span>
                This video can&apos;t be played in your browser.{' '}
                <a href={media.url} download className="font-semibold text-brand-700 underline">
                  Download the video
                </a>
              </span>
            </p>
          ) : (
            <video
              src={media.url}
              controls
              preload="metadata"
              aria-label={label}
              onError={() => setFailed(true)}
              className="h-full w-full bg-black object-contain"
            >
              Your browser does not support the video tag.
            </video>
          ))}
        {media.type === 'pdf' && (
          <a
            href={media.url}
            target="_blank"
            rel="noopener"
            className="absolute inset-0 flex flex-col items-center justify-center gap-3 bg-gradient-to-br from-slate-50 to-slate-200 text-slate-700 hover:text-brand-700"
          >
            <svg aria-hidden="true" viewBox="0 0 24 24" className="h-12 w-12" fill="none" stroke="currentColor" strokeWidth="1.5">
              <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z" />
              <path d="M14 3v5h5M9 13h6M9 17h6" />
            </svg>
            <span className="font-semibold">Open PDF: {media.alt ?? 'document'}</span>
          </a>
        )}
      </div>
      {media.alt && media.type === 'video' && <figcaption className="px-4 py-2 text-sm text-slate-600">{media.alt}</figcaption>}
    </figure>
  );
}

function DownloadButton({ courseSlug, lessonId, index, name }: { courseSlug: string; lessonId: string; index: number; name: string }) {
  const [busy, setBusy] = useState(false);
  async function download() {
    setBusy(true);
    const result = await startDownload(lessonDownloadLink(courseSlug, lessonId, index));
    setBusy(false);
    if (!result.ok) toast({ title: 'Error', description: 'We could not start the download. Please try again.', variant: 'destructive' });
  }
  return (
    <button
      type="button"
      onClick={() => void download()}
      disabled={busy}
      className="inline-flex min-h-11 items-center gap-2 rounded-lg bg-white px-4 py-2 text-sm font-semibold text-brand-700 ring-1 ring-inset ring-brand-200 hover:bg-brand-50 disabled:opacity-60"
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="2">
        <path d="M12 4v11m0 0-4-4m4 4 4-4M5 19h14" />
      </svg>
      {name}
    </button>
  );
}

export function LessonBody({ courseSlug, lesson }: { courseSlug: string; lesson: LessonContent }) {
  return (
    <div className="flex flex-col gap-6">
      {lesson.content && <div className="prose-body" data-testid="lesson-content" dangerouslySetInnerHTML={{ __html: lesson.content }} />}
      {lesson.media.length > 0 && (
        <section aria-label="Lesson media" className={`grid gap-4 ${lesson.media.length > 1 ? 'sm:grid-cols-2' : ''}`}>
          {lesson.media.map((m, i) => (
            <MediaTile key={`${m.url}-${i}`} media={m} title={lesson.title} index={i} />
          ))}
        </section>
      )}
      {lesson.downloadables.length > 0 && (
        <section aria-label="Lesson downloads" className="rounded-2xl border border-slate-200 bg-slate-50 p-5">
          <h3 className="text-sm font-semibold uppercase tracking-wide text-slate-500">Downloads</h3>
          <div className="mt-3 flex flex-wrap gap-3">
            {lesson.downloadables.map((d, i) => (
              <DownloadButton key={`${d.name}-${i}`} courseSlug={courseSlug} lessonId={lesson.id} index={i} name={d.name} />
            ))}
          </div>
        </section>
      )}
    </div>
  );
}
