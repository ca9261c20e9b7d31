// The /v3/tags calls' data schemas (docs/api/v3.md, "Tags"): validation, types and, through tag-routes.ts, the API document.
import { type Static, Type } from '@sinclair/typebox';
import { TAG_NAME_MAX_LENGTH } from './tag-names.js';

export const Tag = Type.Object({
  name: Type.String({ description: 'As first written in the workspace.', examples: ['launch'] }),
  color: Type.Union([Type.String(), Type.Null()], { description: '`#rrggbb`, lower-case; null: none.', examples: ['#1f77b4'] }),
  links: Type.Integer({ minimum: 0, description: 'The live links that carry it.', examples: [12] }),
});
export type Tag = Static<typeof Tag>;

export const TagList = Type.Array(Tag, {
  description: 'Every tag of the workspace, sorted by name ignoring case; a tag no link carries any more stays until deleted.',
});

export const TagPath = Type.Object({
  name: Type.String({ description: 'The tag’s name, in any case (URL-encoded).', examples: ['launch'] }),
});

export const TagEditBody = Type.Object(
  {
    name: Type.Optional(
      Type.String({
        description: `A new name: trimmed, 1 to ${TAG_NAME_MAX_LENGTH} characters without commas or control characters; another tag's (in any case) is 409.`,
      }),
    ),
    // Null first: Fastify's Ajv coerces types, and would turn a null into "" for a string branch tried first.
    color: Type.Optional(Type.Union([Type.Null(), Type.String()], { description: 'A new colour, `#rrggbb`; null removes it.' })),
  },
  { description: 'Only the fields given change.' },
);
export type TagEditBody = Static<typeof TagEditBody>;
