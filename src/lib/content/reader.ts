/** Read-only access to public content, implemented by the server (cached) and by the build. */
import type { ContentType, PublicItemOf } from './schema.ts';

export interface PublicContentReader {
  /** Every item of a type in list order, public fields only. */
  list<T extends ContentType>(type: T): Promise<PublicItemOf<T>[]>;
  /** One item by slug, public fields only; undefined when unknown. */
  get<T extends ContentType>(type: T, slug: string): Promise<PublicItemOf<T> | undefined>;
}
