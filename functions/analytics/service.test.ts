/** Analytics' month arithmetic and CSV cells. */
import { describe, expect, it } from 'vitest';
import { csvCell } from '../platform/http/csv.ts';
import { addMonthsTo, monthSpan } from './service.ts';

describe('revenue analytics helpers', () => {
  it('counts and steps UTC months across years', () => {
    expect(monthSpan('2030-11', '2031-02')).toBe(4);
    expect(monthSpan('2031-02', '2031-02')).toBe(1);
    expect(monthSpan('2031-03', '2031-02')).toBe(0);
    expect(addMonthsTo('2030-12', 1)).toBe('2031-01');
    expect(addMonthsTo('2031-01', -11)).toBe('2030-02');
  });

  it('writes numbers as they are and defuses text a spreadsheet would run as a formula', () => {
    expect(csvCell(-3575)).toBe('-3575');
    expect(csvCell(null)).toBe('');
    expect(csvCell('2031-01')).toBe('2031-01');
    for (const formula of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) expect(csvCell(formula)).toMatch(/^"?'/);
    expect(csvCell('a,"b"')).toBe('"a,""b"""');
  });
});
