/**
 * The plain facts each type's definition carries for the code around it: names, the create form's
 * fields, what is sold and what is downloaded, and the offline drafter's wording.
 */
import { describe, expect, it } from 'vitest';
import { CONTENT_REGISTRY, CONTENT_TYPE_INFO, CONTENT_TYPES, downloadInfo, isPurchasable, PURCHASABLE_TYPES } from './registry.ts';

describe("each type's facts", () => {
  it('names each type for tabs and badges, and one item for server messages', () => {
    expect(CONTENT_TYPES.map((t) => CONTENT_TYPE_INFO[t].name)).toEqual(['Blog Post', 'Tool', 'Course', 'Market Item', 'Event']);
    expect(CONTENT_TYPES.map((t) => CONTENT_TYPE_INFO[t].itemLabel)).toEqual(['Article', 'Tool', 'Course', 'Market item', 'Event']);
  });

  it.each(CONTENT_TYPES)("lists only %s input fields as the create form's own", (type) => {
    const input = CONTENT_REGISTRY[type].input.shape as Record<string, unknown>;
    for (const field of CONTENT_REGISTRY[type].createFields) expect(input, field).toHaveProperty(field);
  });

  it('sells market items and courses one at a time, and nothing else', () => {
    expect(PURCHASABLE_TYPES).toEqual(['course', 'market']);
    expect(CONTENT_TYPES.filter((t) => CONTENT_REGISTRY[t].purchasable)).toEqual(PURCHASABLE_TYPES);
    expect(isPurchasable({ type: 'market' })).toBe(true);
    expect(isPurchasable({ type: 'tool' })).toBe(false);
  });

  it('gives the download island its facts as plain data', () => {
    expect(downloadInfo('tool')).toEqual({ type: 'tool', apiSegment: 'tools', purchasable: false, leadWhenFree: true });
    expect(downloadInfo('market')).toEqual({ type: 'market', apiSegment: 'market', purchasable: true, leadWhenFree: false });
    expect(CONTENT_TYPES.filter((t) => CONTENT_REGISTRY[t].download)).toEqual(['tool', 'market']);
  });

  it.each(CONTENT_TYPES)('words the %s offline draft with the topic in its title and description', (type) => {
    const { title, description } = CONTENT_REGISTRY[type].drafting;
    expect(title).toContain('{subject}');
    expect(description).toContain('{topic}');
  });

  it('orders events by their start as of now, and every other type by date or title', () => {
    expect(CONTENT_TYPES.filter((t) => CONTENT_REGISTRY[t].soonestFirst)).toEqual(['event']);
    expect(CONTENT_REGISTRY.event).toMatchObject({ soonestFirst: 'startsAt', lastsMinutes: 'durationMinutes' });
  });

  it('keeps the join URL and the recording of an event gated, and says only whether a recording exists', () => {
    expect(CONTENT_REGISTRY.event.gated).toEqual(['joinUrl', 'recordingUrl']);
    expect(Object.keys(CONTENT_REGISTRY.event.publicFields.shape)).toContain('hasRecording');
  });

  it('gives each type its own outline', () => {
    expect(new Set(CONTENT_TYPES.map((t) => CONTENT_REGISTRY[t].drafting.outline)).size).toBe(CONTENT_TYPES.length);
  });
});
