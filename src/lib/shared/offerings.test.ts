import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ServiceSchema, sortServices, stepDuration, STEP_DURATIONS } from './offerings.ts';

const dir = path.resolve(import.meta.dirname, '../../../content/services');
const files = readdirSync(dir).filter((f) => f.endsWith('.yaml'));
const services = files.map((f) => ({
  id: f.replace(/\.yaml$/, ''),
  data: ServiceSchema.parse(parse(readFileSync(path.join(dir, f), 'utf8'))),
}));

describe('service step durations', () => {
  it('labels the six steps by position as the spec lists them', () => {
    expect([0, 1, 2, 3, 4, 5].map(stepDuration)).toEqual([
      '1-2 weeks',
      'approximately 2-3 weeks',
      'usually 3-4 weeks',
      'about 1-2 weeks',
      'approximately 1 week',
      'ongoing support',
    ]);
  });

  it('keeps the last label for positions beyond the table', () => {
    expect(stepDuration(9)).toBe(STEP_DURATIONS[5]);
    expect(stepDuration(-1)).toBe(STEP_DURATIONS[0]);
  });
});

describe('the services collection', () => {
  it('holds the six services with the spec ids and titles, in menu order', () => {
    const ordered = sortServices(services.map((s) => ({ ...s.data, id: s.id })));
    expect(ordered.map((s) => [s.id, s.title])).toEqual([
      ['ai-automation', 'AI Automation'],
      ['seo-optimization', 'SEO Optimization'],
      ['content-strategy', 'Content Strategy'],
      ['website-management', 'Website Management'],
      ['social-media', 'Social Media Growth'],
      ['chatbot-development', 'Chatbot Development'],
    ]);
  });

  it('gives every service 5 benefits, 6 process steps and 2 case studies', () => {
    for (const { data } of services) {
      expect(data.benefits).toHaveLength(5);
      expect(data.process).toHaveLength(6);
      expect(data.caseStudies).toHaveLength(2);
    }
  });

  it('rejects a service with a missing benefit', () => {
    const data = { ...services[0]!.data, benefits: services[0]!.data.benefits.slice(0, 4) };
    expect(ServiceSchema.safeParse(data).success).toBe(false);
  });
});
