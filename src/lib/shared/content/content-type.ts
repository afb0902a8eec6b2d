/**
 * What a content type is: one definition (`defineContentType`) holding its facts and texts (labels,
 * the create form's fields, whether it is sold or downloaded, the offline drafter's wording), its
 * schemas (frontmatter, creator-tools input, full fields, public fields), its gated fields and its
 * mappers. registry.ts lists the types and derives everything generic from these definitions.
 * Pure module: no Node or browser APIs.
 */
import { z } from 'zod';
import { BASE_FRONTMATTER, CONTENT_SOURCES, ITEM_BASE } from './schema.ts';

/** The filters a list page may offer (filter.ts reads them from the address). */
export type ListFilterKind = 'search' | 'tag' | 'category' | 'skillLevel' | 'price';

type Shape = z.core.$ZodShape;
type Extend<A extends Shape, B extends Shape> = z.core.util.Extend<A, B>;
type Out<S extends Shape> = z.output<z.ZodObject<S>>;
type In<S extends Shape> = z.input<z.ZodObject<S>>;
type BaseFrontmatter = typeof BASE_FRONTMATTER;
type FrontmatterShape<FM extends Shape> = Extend<BaseFrontmatter, FM>;
type InputShape<FM extends Shape, IN extends Shape> = Extend<FrontmatterShape<FM>, IN>;

/**
 * Dotted paths into a value's fields: "content", "sections.lessons.media". Arrays are walked
 * through, so a path names the field in every element.
 */
export type FieldPath<T, Depth extends unknown[] = []> = Depth['length'] extends 6
  ? never
  : T extends readonly (infer E)[]
    ? FieldPath<E, Depth>
    : T extends object
      ? { [K in keyof T & string]-?: K | `${K}.${FieldPath<NonNullable<T[K]>, [...Depth, 0]>}` }[keyof T & string]
      : never;

/** User-facing texts of a type, worded as in the spec's error catalogue. */
export interface ContentTypeLabels {
  /** Singular noun used in messages ("Failed to load blog. ..."). */
  singular: string;
  /** Plural noun used in messages ("Failed to load blogs. ..."). */
  plural: string;
  listTitle: string;
  listIntro: string;
  /** Shown when the list cannot be loaded. */
  loadError: string;
  /** Shown when the type has no items at all. */
  emptyAll: string;
  /** Shown when no item matches the active filters. */
  emptyFiltered: string;
  searchPlaceholder: string;
  /** The type's name on the create form's tab and in the admin's content list ("Blog Post"). */
  name: string;
  /** One item, capitalised, as the gated routes and payments name it ("Article not found"). */
  itemLabel: string;
}

/**
 * The create form's own fields of a type, beyond the common ones (title, description, tags, access
 * level, media): the form keeps one draft holding them all, and create-form.ts says how each is sent.
 */
export type DraftField =
  | 'content'
  | 'downloadUrl'
  | 'externalLink'
  | 'price'
  | 'fileType'
  | 'duration'
  | 'skillLevel'
  | 'sections'
  | 'startsAt'
  | 'timeZone'
  | 'durationMinutes'
  | 'host'
  | 'format'
  | 'joinUrl'
  | 'address'
  | 'capacity'
  | 'recordingUrl'
  | 'cancelled';

/** A type whose items carry a gated file (its `downloadUrl`), served at /api/content/{apiSegment}/{slug}/download. */
export interface DownloadSpec {
  /** A free item also offers the lead dialog, so anyone can have the link by email (spec point 2 "Tools"). */
  leadWhenFree: boolean;
}

/** The shapes of body the offline drafter writes (functions/ai/offline.ts). */
export type DraftOutline = 'guide' | 'toolkit' | 'curriculum' | 'pack' | 'agenda';

/** How the offline drafter words a draft of the type: plain templates, filled with the user's topic. */
export interface DraftingHints {
  /** The title; `{subject}` is the topic in title case. */
  title: string;
  /** The description (after "Offline draft: "); `{topic}` is the topic as typed. */
  description: string;
  /** The body's shape. */
  outline: DraftOutline;
  /** The one tag of a draft whose topic has no word to tag. */
  fallbackTag: string;
}

/**
 * What one content type declares; `defineContentType` builds its schemas from it. Everything but the
 * schemas and mappers is plain data, since browser islands import the registry too.
 */
export interface ContentTypeSpec<
  T extends string,
  FM extends Shape,
  IN extends Shape,
  F extends Shape,
  P extends Shape,
  A extends string = string,
  B extends boolean = boolean,
  D extends DownloadSpec | undefined = DownloadSpec | undefined,
> {
  /** The `type` of its items and of its database rows. */
  type: T;
  /** Folder of its MDX files under content/ (also the Astro collection's name). */
  folder: string;
  /** Segment of the public and gated APIs: /api/public/{apiSegment}, /api/content/{apiSegment}/…. */
  apiSegment: A;
  /** Route of the list page; detail pages live under it. */
  path: `/${string}`;
  labels: ContentTypeLabels;
  /** Filters the list page offers, in the order they show. */
  filters: readonly ListFilterKind[];
  /** A date field (YYYY-MM-DD) that orders lists newest first; without one, lists go by title. */
  newestFirst?: NoInfer<keyof F & string>;
  /**
   * A field holding a UTC instant (ISO 8601) that orders lists by time as seen when the list is
   * asked for: items still upcoming (not yet ended) soonest first, then past ones most recent first.
   */
  soonestFirst?: NoInfer<keyof F & string>;
  /** With `soonestFirst`: a field of minutes after the start; an item is upcoming until then (else until its start). */
  lastsMinutes?: NoInfer<keyof F & string>;
  /** Frontmatter fields of the type, added to the common ones. Unknown fields are refused. */
  frontmatter: FM;
  /** Fields of a creator-tools write that replace or add to the frontmatter's (relaxed, defaulted). */
  input: IN;
  /** The type's own fields in a full item: exactly what a database row keeps in `details`. */
  fields: F;
  /** What a visitor may see of `fields`. Everything else is dropped from public answers. */
  publicFields: P;
  /** Paths of the gated fields in `fields` (see FieldPath); none may be public. */
  gated: readonly NoInfer<FieldPath<Out<F>>>[];
  /** The create form's own fields of the type, in the order it shows them; each is one of its input's fields. */
  createFields: readonly NoInfer<DraftField & (keyof FM | keyof IN)>[];
  /** Sold one at a time: a price opens an item to its buyers whatever their level. Absent: never sold. */
  purchasable?: B;
  /** Its items carry a gated file to download. Absent: they have none. */
  download?: D;
  /** How the offline drafter words a draft of the type. */
  drafting: DraftingHints;
  /**
   * A rule across fields (an online event needs its join URL), checked on the frontmatter, the
   * creator-tools input and every stored item; they name the fields alike. It answers true, or the
   * problem: a message for the whole form, or `{ path, message }` to put it on one field.
   */
  refine?: (fields: Partial<Out<F>>) => RefineResult<NoInfer<keyof F & string>>;
  /** Public facts derived from the item's fields, gated ones included (whether a recording exists), added before projecting. */
  derivePublic?: (fields: Out<F>) => Partial<Out<P>>;
  /** The stored fields as the creator-tools input, where the input names or writes them otherwise (a start kept as UTC, written as local time). */
  toInput?: (fields: Out<F>) => Partial<Out<InputShape<FM, IN>>>;
  /** An MDX file's validated frontmatter and body as the type's fields. */
  fromFrontmatter(fm: Out<FrontmatterShape<FM>>, body: string): In<F>;
  /** A validated creator-tools input as the type's fields; `now` dates what the input leaves undated. */
  fromInput(input: Out<InputShape<FM, IN>>, now: Date): In<F>;
}

/** What a cross-field rule answers: true, a message for the whole form, or a message on one field. */
export type RefineResult<K extends string = string> = true | string | { path: K; message: string };

/** Adds a type's cross-field rule to one of its object schemas (frontmatter, input, item). */
function withRule<S extends z.ZodObject>(schema: S, refine: ((fields: never) => RefineResult) | undefined): S {
  if (!refine) return schema;
  return schema.superRefine((value, ctx) => {
    const result = refine(value as never);
    if (result === true) return;
    const { path, message } = typeof result === 'string' ? { path: undefined, message: result } : result;
    ctx.addIssue({ code: 'custom', message, input: value, ...(path ? { path: [path] } : {}) });
  });
}

type WalkDef = { type: string; innerType?: z.ZodType; element?: z.ZodType; shape?: Shape };
const defOf = (schema: z.core.$ZodType) => schema._zod.def as unknown as WalkDef;

/**
 * A copy of `schema` in which every object, however deeply nested, refuses unknown keys. Checks,
 * defaults and descriptions are kept (the copies inherit their originals' metadata).
 */
export function strictDeep<S extends z.core.$ZodType>(schema: S): S {
  const def = defOf(schema);
  let next: WalkDef;
  if (def.type === 'object' && def.shape) {
    const shape = Object.fromEntries(Object.entries(def.shape).map(([k, v]) => [k, strictDeep(v)]));
    next = { ...def, shape, catchall: z.never() } as WalkDef;
  } else if (def.type === 'array' && def.element) next = { ...def, element: strictDeep(def.element) };
  else if (def.innerType) next = { ...def, innerType: strictDeep(def.innerType) };
  else return schema;
  return z.core.clone(schema, next as unknown as S['_zod']['def'], { parent: true });
}

/** The schema at a dotted path (see FieldPath), looking through optional, default and array wrappers. */
export function schemaAt(schema: z.core.$ZodType, path: string): z.core.$ZodType | undefined {
  let current: z.core.$ZodType | undefined = schema;
  for (const key of path.split('.')) {
    let def = defOf(current);
    while (def.innerType || def.element) {
      current = (def.innerType ?? def.element)!;
      def = defOf(current);
    }
    current = def.shape && Object.hasOwn(def.shape, key) ? def.shape[key] : undefined;
    if (!current) return undefined;
  }
  return current;
}

/**
 * One content type's definition. Builds its schemas: `frontmatter` (strict at every level, so a
 * misspelt field fails), `input` (frontmatter with the input overrides; unknown keys are dropped),
 * `fields`, `item` (a full item), `public` (what a visitor may see; parsing copies public fields only)
 * and `publicStrict` (the same, refusing extra keys: for checks). The type's cross-field rule
 * (`refine`) is part of the frontmatter, input and item schemas. Throws when a gated path is not a
 * field or is public, so a mistake there stops the build and the server at start.
 */
export function defineContentType<
  T extends string,
  FM extends Shape,
  IN extends Shape,
  F extends Shape,
  P extends Shape,
  A extends string,
  B extends boolean = false,
  D extends DownloadSpec | undefined = undefined,
>(spec: ContentTypeSpec<T, FM, IN, F, P, A, B, D>) {
  const fields = z.object(spec.fields);
  const publicFields = z.object(spec.publicFields);
  for (const path of spec.gated) {
    if (!schemaAt(fields, path)) throw new Error(`Content type ${spec.type}: gated field "${path}" is not one of its fields`);
    if (schemaAt(publicFields, path)) throw new Error(`Content type ${spec.type}: gated field "${path}" is public`);
  }
  const publicItem = z.object({ ...ITEM_BASE, type: z.literal(spec.type) }).extend(spec.publicFields);
  return {
    ...spec,
    // Always present, so the registry can tell the types apart by them (PurchasableType, DownloadType).
    purchasable: (spec.purchasable ?? false) as B,
    download: spec.download as D,
    frontmatter: withRule(strictDeep(z.strictObject(BASE_FRONTMATTER).extend(spec.frontmatter)), spec.refine),
    input: withRule(z.object(BASE_FRONTMATTER).extend(spec.frontmatter).extend(spec.input), spec.refine),
    fields,
    publicFields,
    item: withRule(
      z.object({ ...ITEM_BASE, type: z.literal(spec.type), source: z.enum(CONTENT_SOURCES) }).extend(spec.fields),
      spec.refine,
    ),
    public: publicItem,
    publicStrict: strictDeep(publicItem),
  };
}
