import { describe, expect, it } from 'vitest';
import { defaultBackoff } from './worker.ts';

describe('defaultBackoff', () => {
  it('doubles from 30 seconds per attempt, within 20% jitter', () => {
    for (const [attempt, base] of [
      [1, 30_000],
      [2, 60_000],
      [3, 120_000],
      [4, 240_000],
    ] as const) {
      for (let i = 0; i < 50; i++) {
        const ms = defaultBackoff(attempt);
        expect(ms).toBeGreaterThanOrEqual(base * 0.8);
        expect(ms).toBeLessThanOrEqual(base * 1.2);
      }
    }
  });

  it('caps the delay at one hour', () => {
    for (let i = 0; i < 50; i++) expect(defaultBackoff(30)).toBeLessThanOrEqual(3_600_000 * 1.2);
    expect(defaultBackoff(30)).toBeGreaterThanOrEqual(3_600_000 * 0.8);
  });
});
