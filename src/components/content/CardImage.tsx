import { useState } from 'react';
import type { MediaItem } from '#shared/content/schema.ts';

const PLACEHOLDER_IMAGE = '/images/placeholder.svg';

/** 16:9 cover from the item's first image; the placeholder shows when there is none or it fails. */
export function CardImage({ media }: { media: readonly MediaItem[] }) {
  const cover = media.find((m) => m.type === 'image');
  const [failed, setFailed] = useState(false);
  const src = cover && !failed ? cover.url : PLACEHOLDER_IMAGE;
  return (
    <div className="aspect-video overflow-hidden bg-slate-100">
      <img
        src={src}
        alt=""
        loading="lazy"
        decoding="async"
        width={640}
        height={360}
        onError={() => setFailed(true)}
        data-testid="card-image"
        className="h-full w-full object-cover transition-transform duration-300 group-hover:scale-[1.02]"
      />
    </div>
  );
}
