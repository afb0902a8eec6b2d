/**
 * Which fields component the create form shows for each content type, and where: the one place the
 * form is told about a type. The type's facts (its tab name, which fields it sends, whether an AI
 * draft's body fills it) come from its definition in the registry; only the components live here,
 * since the registry is pure data shared with the server.
 */
import type { ComponentType } from 'react';
import type { ContentType } from '#shared/content/registry.ts';
import { BlogFields } from './BlogFields.tsx';
import { CourseFields } from './CourseFields.tsx';
import { EventFields } from './EventFields.tsx';
import type { TypeFieldsProps } from './form-parts.tsx';
import { MarketFields } from './MarketFields.tsx';
import { ToolFields } from './ToolFields.tsx';

export type { TypeFieldsProps } from './form-parts.tsx';

/** Where a type's fields go: a body right under the description, other fields after the access level. */
export type FieldsPlace = 'after-description' | 'after-access-level';

export const TYPE_FIELDS: Record<ContentType, { Fields: ComponentType<TypeFieldsProps>; place: FieldsPlace }> = {
  blog: { Fields: BlogFields, place: 'after-description' },
  tool: { Fields: ToolFields, place: 'after-access-level' },
  course: { Fields: CourseFields, place: 'after-access-level' },
  market: { Fields: MarketFields, place: 'after-access-level' },
  event: { Fields: EventFields, place: 'after-access-level' },
};
