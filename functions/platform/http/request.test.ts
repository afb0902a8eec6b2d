import { describe, expect, it } from 'vitest';
import { withoutInvisible } from '#shared/visible-text.ts';
import { singleLine, visibleText } from './request.ts';

describe('text without invisible characters', () => {
  const title = visibleText(singleLine('Title', 20));

  it('drops bidirectional controls, zero-width spaces and the BOM, and keeps the joiners scripts and emoji need', () => {
    expect(title.parse('\ufeffgpj\u202e.exe\u200b \u2067x\u2069\u200e')).toBe('gpj.exe x');
    expect(withoutInvisible('\u{1f469}\u200d\u{1f4bb} \u0645\u06cc\u200c\u062e\u0648\u0627\u0645')).toBe(
      '\u{1f469}\u200d\u{1f4bb} \u0645\u06cc\u200c\u062e\u0648\u0627\u0645',
    );
  });

  it("leaves everything else to the field's own checks and messages", () => {
    expect(title.safeParse('\u202e\u200b').error?.issues[0]?.message).toBe('Title is required');
    expect(title.safeParse(5).error?.issues[0]?.message).toBe('Title is required');
    expect(title.safeParse('a\nb').error?.issues[0]?.message).toBe('Title must be a single line of text');
  });
});
