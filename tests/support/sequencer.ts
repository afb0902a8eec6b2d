/**
 * The order test files start in. Vitest starts the longest files first when it has timings from an
 * earlier run, and the biggest first on a fresh clone (CI), where a short file that runs for minutes
 * (the start-up suite starts a dozen servers) can start last and run alone with the other core idle.
 * So the files that take a minute or more on CI's two cores start first, in this order; the rest
 * follow in vitest's own order.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export const SLOWEST_FIRST = [
  'tests/leak/crawler.test.ts',
  'tests/integration/startup.test.ts',
  'tests/integration/edge.security.test.ts',
  'tests/integration/bundle.test.ts',
];

const rank = (spec: TestSpecification) => {
  const index = SLOWEST_FIRST.findIndex((file) => spec.moduleId.endsWith(`/${file}`));
  return index < 0 ? SLOWEST_FIRST.length : index;
};

export class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // Where each file's project starts in vitest's order: projects keep their order.
    const project = new Map(sorted.map((spec) => [spec, sorted.findIndex((other) => other.project === spec.project)]));
    // Stable: within a project the listed files move to the front, everything else keeps vitest's order.
    return sorted.sort((a, b) => project.get(a)! - project.get(b)! || rank(a) - rank(b));
  }
}
