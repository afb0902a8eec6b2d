/**
 * How a part of the product declares its settings, once: the environment variables it reads (a zod
 * shape, with each variable's doc comment) and how they become its typed settings. `functions/config.ts`
 * joins every part's variables into one schema and every part's settings into `Config`, whose type is
 * derived from these readers, so a setting is written in one place.
 */
import { z } from 'zod';

/** What every reader may need besides its own variables, worked out once by the loader. */
export interface SettingsContext {
  /** The working directory relative paths in the environment are taken from. */
  cwd: string;
  /** DATA_DIR, absolute: everything written at run time lives under it (or in the bucket). */
  dataDir: string;
  /** CONTENT_DIR, absolute. */
  contentDir: string;
  /** On the embedded defaults (no database server, no hosted auth, no https site): demo data is welcome. */
  embeddedDefaults: boolean;
  /** A deploy preview (PREVIEW_OF is set). */
  preview: boolean;
}

export interface Settings<Shape extends z.ZodRawShape, Value> {
  /** The environment variables this part reads. */
  variables: Shape;
  /** Its settings, from its own variables only (after validation). */
  read: (env: z.output<z.ZodObject<Shape>>, context: SettingsContext) => Value;
}

export function defineSettings<Shape extends z.ZodRawShape, Value>(
  variables: Shape,
  read: (env: z.output<z.ZodObject<Shape>>, context: SettingsContext) => Value,
): Settings<Shape, Value> {
  return { variables, read };
}

/** A yes/no variable: true, 1 or yes is on; false, 0, no or empty is off. */
export const booleanFlag = z.enum(['true', 'false', '1', '0', 'yes', 'no', '']).transform((v) => v === 'true' || v === '1' || v === 'yes');

/** An http(s) URL. */
export const httpUrl = () => z.url({ protocol: /^https?$/ });

/** A comma-separated list, trimmed, blanks dropped. */
export const commaList = (value: string) =>
  value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
