/** Read-only access to public content, implemented by the server (cached) and by the build. */
import type { ContentType, PublicItemOf } from './registry.ts';

export interface PublicContentReader {
  /** Every item of a type in list order, public fields only. */
  list<T extends ContentType>(type: T): Promise<PublicItemOf<T>[]>;
  /** One item by slug, public fields only; undefined when unknown. */
  get<T extends ContentType>(type: T, slug: string): Promise<PublicItemOf<T> | undefined>;
}

/** The build's reader (functions/content/build-source.ts), which also tells which items come from git. */
export interface BuildReader extends PublicContentReader {
  /** Public items of a type that come from MDX files (the only ones with prebuilt detail pages). */
  fromGit<T extends ContentType>(type: T): Promise<PublicItemOf<T>[]>;
}
