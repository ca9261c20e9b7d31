// A link's card for social apps' preview fetchers (decision 0041), as the v3 API takes and answers it. A leaf module
// (TypeBox and link-fields.ts only): the web app's typecheck reads it through v3-schemas.ts.
import { type Static, Type } from '@sinclair/typebox';
import { PREVIEW_DESCRIPTION_MAX_LENGTH, TITLE_MAX_LENGTH } from './link-fields.js';

const PREVIEW =
  "Brief's addition (decision 0041): the card the link shows when it is pasted into a chat or social app. Their preview " +
  'fetchers (Slack, WhatsApp, X, LinkedIn, iMessage, Discord, Telegram, …) get a small HTML page with these as its ' +
  'Open Graph and Twitter card tags, and a link on to the destination; people, search engines and other bots get the redirect. ' +
  `\`title\`: 1 to ${TITLE_MAX_LENGTH} characters; \`description\`: at most ${PREVIEW_DESCRIPTION_MAX_LENGTH}; \`image\`: an https URL ` +
  '(Brief never fetches it). null: no card.';

const EXAMPLE = {
  title: 'Spring sale: 30% off everything',
  description: 'Until Sunday, in every shop and online.',
  image: 'https://example.com/images/spring-sale.jpg',
};

/** A card as answered: `description` and `image` null when not set. */
export const PreviewSchema = Type.Object({
  title: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  image: Type.Union([Type.String(), Type.Null()]),
});
export type PreviewSchema = Static<typeof PreviewSchema>;

/** What a link answer carries: its card, or null. Always present. */
export const PreviewField = Type.Union([PreviewSchema, Type.Null()], { description: `${PREVIEW} Always present.`, examples: [EXAMPLE] });

/**
 * A card in a request: one nullable object (a type list, not a union, so a wrong type is one error naming `preview`),
 * its parts typed here and checked by the links feature (link-preview.ts). Null or empty description and image: none.
 */
export const PreviewInput = (more = '') =>
  Type.Unsafe<{ title: string; description?: string | null; image?: string | null } | null>({
    type: ['object', 'null'],
    properties: {
      title: Type.String(),
      description: Type.Unsafe<string | null>({ type: ['string', 'null'] }),
      image: Type.Unsafe<string | null>({ type: ['string', 'null'] }),
    },
    required: ['title'],
    description: `${PREVIEW}${more}`,
    examples: [EXAMPLE],
  });
export type PreviewInput = Static<ReturnType<typeof PreviewInput>>;
