/**
 * The "Service" entity (spec point 3): the consultancy's six offers, kept as YAML files in
 * content/services/ so editors change them through git. The schema validates them at build time
 * and describes each field for authors. Pure module: no Node or browser APIs.
 */
import { z } from 'zod';

/** Icons the service pages can draw (src/components/marketing/ServiceIcon.astro). */
const SERVICE_ICONS = ['bot', 'search', 'pen', 'monitor', 'share', 'message'] as const;
export type ServiceIcon = (typeof SERVICE_ICONS)[number];

const text = (min: number, max: number) => z.string().trim().min(min).max(max);

const CaseStudySchema = z.object({
  title: text(5, 120).describe('Client and outcome in a few words, e.g. "Regional HVAC company".'),
  description: text(40, 600).describe('What we did and the measurable result, in two or three sentences.'),
});

export const ServiceSchema = z.object({
  title: text(3, 60).describe('Name shown in the navigation, cards and page heading, e.g. "SEO Optimization".'),
  order: z.number().int().min(1).max(99).describe('Position in menus and grids (1 comes first).'),
  icon: z.enum(SERVICE_ICONS).describe(`Icon drawn beside the title: one of ${SERVICE_ICONS.join(', ')}.`),
  shortDescription: text(20, 160).describe('One sentence for the home page card and search snippets.'),
  fullDescription: text(80, 900).describe('The paragraph under the title on the overview and detail pages.'),
  benefits: z.array(text(10, 200)).length(5).describe('Exactly five benefits, shown as "Key Benefits" and "Core Benefits".'),
  process: z
    .array(text(3, 80))
    .length(6)
    .describe('Exactly six step names of the delivery process, in order; durations come from their position.'),
  caseStudies: z.array(CaseStudySchema).length(2).describe('Exactly two case studies shown under "Measurable Results".'),
});
export type ServiceData = z.infer<typeof ServiceSchema>;

/** A service with its id (the file name, used as the URL slug). */
export type Service = ServiceData & { id: string };

/** Step durations by position (spec point 9); a step past the sixth keeps the last label. */
export const STEP_DURATIONS = [
  '1-2 weeks',
  'approximately 2-3 weeks',
  'usually 3-4 weeks',
  'about 1-2 weeks',
  'approximately 1 week',
  'ongoing support',
] as const;

/** Duration label of the process step at a zero-based index. */
export function stepDuration(index: number): string {
  return STEP_DURATIONS[Math.min(Math.max(index, 0), STEP_DURATIONS.length - 1)]!;
}

/** Services in menu order (by `order`, then title). */
export function sortServices<T extends Pick<ServiceData, 'order' | 'title'>>(services: readonly T[]): T[] {
  return [...services].sort((a, b) => a.order - b.order || a.title.localeCompare(b.title));
}

/** Detail URL of a service. */
export function servicePath(id: string): string {
  return `/services/${id}`;
}
