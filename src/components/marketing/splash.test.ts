import { describe, expect, it } from 'vitest';
import { splashProgress } from './splash.ts';

describe('splash progress', () => {
  it('rises 5% for every 20 ms elapsed and stops at 100%', () => {
    expect(splashProgress(0)).toBe(0);
    expect(splashProgress(19)).toBe(0);
    expect(splashProgress(20)).toBe(5);
    expect(splashProgress(210)).toBe(50);
    expect(splashProgress(399)).toBe(95);
    expect(splashProgress(400)).toBe(100);
    expect(splashProgress(5000)).toBe(100);
  });
});
