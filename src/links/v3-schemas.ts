// The v3 link routes' data schemas (docs/api/v3.md): validation, types and,
// through v3-routes.ts, the API document.
import { type Static, Type } from '@sinclair/typebox';
import { withDefaults } from '../query-defaults.js';
import { CONDITION_TYPES, MAX_RULES } from '../redirect/rules/rule-types.js';
import { MAX_CONDITIONS, MAX_SPLIT_TARGETS, SEARCH_MAX_LENGTH } from './link-fields.js';
import { PreviewField, PreviewInput } from './preview-schemas.js';
import { MAX_TAGS, TAG_NAME_MAX_LENGTH } from './tag-names.js';

const FORWARD_QUERY =
  "Brief's addition: whether the redirect adds a visitor's query string to the destination's (the destination's own value " +
  'wins a clash; decision 0015). Default true; false: the destination as stored, whatever the visitor sent.';

const RULES =
  "Brief's addition (decision 0039): redirect rules, in order. The first rule whose conditions all match sends the " +
  "visitor to its `url` (checked as a link's url: http(s), not a short domain, not a blocked host); none matching, " +
  `the link's own url. The link's query forwarding applies to whichever url is chosen. At most ${MAX_RULES} rules, ` +
  `each with 1 to ${MAX_CONDITIONS} conditions. A link with rules answers 302 with \`Cache-Control: private, no-store\`. ` +
  'Instead of `url`, a rule may have a `split`: an A/B split of the matching visitors between its targets.';

/** One condition of a rule: which of `key` and `value` it takes depends on its type. */
const RuleCondition = Type.Object({
  type: Type.Unsafe<(typeof CONDITION_TYPES)[number]>({ type: 'string', enum: [...CONDITION_TYPES] }),
  key: Type.Optional(
    Type.String({ description: 'The query parameter (`query`, `query-any`, `query-none`), or the IANA time zone (`weekday`, `hours`).' }),
  ),
  value: Type.Optional(
    Type.String({ description: 'What the condition matches: a device, a language, a country, a value, an address or CIDR, an instant, …' }),
  ),
});

/** A redirect rule as the API takes and answers it. */
export const RuleSchema = Type.Object({
  url: Type.Optional(Type.String({ description: 'Where a matching visitor goes; absent when the rule has a split.' })),
  split: Type.Optional(
    Type.Array(Type.Object({ url: Type.String(), weight: Type.Integer({ description: '1 to 100.' }) }), {
      description:
        `Instead of url: 2 to ${MAX_SPLIT_TARGETS} targets, each url checked as a link's, with whole-number weights summing to 100. ` +
        "Each visitor's choice is kept 30 days by a cookie on the link's path (`brief_split`, a number 0–99; nothing of the " +
        'visitor is stored on the server); crawlers and link previews always get the first target.',
      examples: [
        [
          { url: 'https://example.com/landing-a', weight: 50 },
          { url: 'https://example.com/landing-b', weight: 50 },
        ],
      ],
    }),
  ),
  conditions: Type.Array(RuleCondition, { description: `1 to ${MAX_CONDITIONS} conditions; all must match.` }),
});
export type RuleSchema = Static<typeof RuleSchema>;

const RULES_EXAMPLE = [
  { url: 'https://example.com/app/android', conditions: [{ type: 'device', value: 'android' }] },
  {
    url: 'https://example.com/newsletter-landing',
    conditions: [
      { type: 'query', key: 'utm_source', value: 'newsletter' },
      { type: 'query-any', key: 'ref' },
    ],
  },
];

const Rules = Type.Array(RuleSchema, { description: RULES, examples: [RULES_EXAMPLE] });

const TAGS =
  `Brief's addition (decision 0040): the link's tags, at most ${MAX_TAGS} names, each trimmed, 1 to ${TAG_NAME_MAX_LENGTH} ` +
  'characters without commas or control characters, none twice whatever its case. A name the workspace has in another case ' +
  "takes that tag's spelling; a new one makes the tag (GET /v3/tags).";

/** A link's tags in a request. */
const Tags = (description: string) => Type.Array(Type.String(), { maxItems: MAX_TAGS, description, examples: [['launch', 'newsletter']] });

const TAG_LIST = "Brief's addition: tag names separated by commas (any case; a name no tag has matches nothing). ";

/** `tags`, `tagMode` and `excludeTags`: a list's or an analytics call's filter by the links' tags as they are now. */
export const TagFilterQuery = {
  tags: Type.Optional(
    Type.String({
      maxLength: 2000,
      description: `${TAG_LIST}Only links with any of them (\`tagMode=all\`: all of them).`,
      examples: ['launch,newsletter'],
    }),
  ),
  tagMode: Type.Optional(
    Type.Unsafe<'any' | 'all'>({ type: 'string', enum: ['any', 'all'], default: 'any', description: 'How `tags` matches: any of them, or all.' }),
  ),
  excludeTags: Type.Optional(Type.String({ maxLength: 2000, description: `${TAG_LIST}Leaves out links with any of them.`, examples: ['archive'] })),
};

const WorkspaceId = Type.Optional(
  Type.String({
    description: "The caller's workspace id; absent, empty or `undefined` mean the caller's own. Another account's is not found (404).",
  }),
);

/** One link to make, as the SDK sends it; every item is checked before any is made (decision 0017). */
const MAX_VISITS =
  "Brief's addition (decision 0039): past this many visits (bots not counted) the link answers 410 to everyone, bots " +
  'included, on every instance. A whole number from 1 to 2147483647; null: no limit. A link with a limit answers 302 with ' +
  '`Cache-Control: private, no-store`.';

/**
 * `maxVisits` in a request: one type list, not a union, so Fastify's Ajv (which coerces types) takes `0` as the integer
 * it is (refused by the links feature with its own message) rather than as a null, and a null as none rather than 0.
 */
const MaxVisits = (description: string, example: number) =>
  Type.Unsafe<number | null>({ type: ['integer', 'null'], description, examples: [example] });

export const BulkItem = Type.Object({
  url: Type.String({
    description: 'The long URL (absolute http or https; no user name or password unless ALLOW_URL_CREDENTIALS is on).',
    examples: ['https://example.com/a'],
  }),
  domain: Type.Optional(Type.String({ description: "A public short domain or one of the caller's." })),
  slug: Type.Optional(Type.String({ description: 'Custom alias: 1–64 of A-Z a-z 0-9 _ -.' })),
  // Read by the create as a single create's (link-input.ts): typed here so a number is a 422, never a 500.
  title: Type.Optional(Type.String({ description: 'A title for the link, at most 512 characters.' })),
  comment: Type.Optional(Type.String({ description: 'A free-text note, at most 1,024 characters.' })),
  password: Type.Optional(Type.String({ description: 'At least 6 characters; visitors must enter it. Stored only as a scrypt hash.' })),
  expiredAt: Type.Optional(
    Type.String({ description: 'ISO 8601 timestamp with a zone, a date and time that exist, in the future: after it the link answers 410.' }),
  ),
  reuseExisting: Type.Optional(
    Type.Boolean({ description: "Return the caller's existing link to the URL instead of a new one (never for a password or expiry)." }),
  ),
  forwardQuery: Type.Optional(Type.Boolean({ description: FORWARD_QUERY })),
  rules: Type.Optional(Rules),
  maxVisits: Type.Optional(MaxVisits(MAX_VISITS, 100)),
  tags: Type.Optional(Tags(TAGS)),
  preview: Type.Optional(PreviewInput()),
});
export type BulkItem = Static<typeof BulkItem>;

export const BULK_MAX_ITEMS = 200;

export const BulkBody = Type.Array(Type.Unknown(), {
  minItems: 1,
  maxItems: BULK_MAX_ITEMS,
  description: `1 to ${BULK_MAX_ITEMS} links to make (see BulkItem); results come back in the same order.`,
});

export const BulkQuery = Type.Object({ workspaceId: WorkspaceId });

const Uuid = Type.String({ format: 'uuid' });
const Timestamp = Type.String({ format: 'date-time' });

export const BulkResult = Type.Array(
  Type.Union([
    Type.Object({
      id: Uuid,
      url: Type.String(),
      slug: Type.String({ description: 'The key the link redirects from: its slug, or its generated code.' }),
      isCustomSlug: Type.Boolean(),
      domain: Type.String(),
      isReused: Type.Boolean(),
      shortLink: Type.String(),
      comment: Type.String({ description: 'Empty when there is none.' }),
    }),
    Type.Object({
      url: Type.String({ description: 'The item’s url, normalized: always an absolute http(s) URL.' }),
      error: Type.String({ description: 'The error code: E_VALIDATION_ERROR (a slug taken, a blocked host, a domain the caller may not use).' }),
      message: Type.String(),
    }),
  ]),
);
export type BulkResult = Static<typeof BulkResult>;

export const ShortenV3Query = Type.Object({
  url: Type.String({ description: 'The long URL (absolute http or https).' }),
  domain: Type.Optional(Type.String()),
  slug: Type.Optional(Type.String()),
  comment: Type.Optional(Type.String()),
  returnExisting: Type.Optional(
    Type.Unsafe<'1' | '0' | 'true' | 'false'>({
      type: 'string',
      enum: ['1', '0', 'true', 'false'],
      description: "`1` or `true`: return the caller's existing link to the URL instead of a new one.",
    }),
  ),
  forwardQuery: Type.Optional(
    Type.Unsafe<'1' | '0' | 'true' | 'false'>({
      type: 'string',
      enum: ['1', '0', 'true', 'false'],
      description: `${FORWARD_QUERY} \`0\` or \`false\` turns it off.`,
    }),
  ),
  workspaceId: WorkspaceId,
});
export type ShortenV3Query = Static<typeof ShortenV3Query>;

export const ShortenV3Result = Type.Object({
  id: Uuid,
  code: Type.String(),
  slug: Type.String(),
  domain: Type.String(),
  urlPrefix: Type.String(),
  status: Type.String({ enum: ['public', 'blocked'] }),
  url: Type.String(),
  shortened: Type.String(),
});
export type ShortenV3Result = Static<typeof ShortenV3Result>;

// page and perPage have defaults: optional for a client, always there for the handler (withDefaults).
export const ListV3Query = withDefaults(
  Type.Object({
    page: Type.Integer({ minimum: 1, default: 1 }),
    perPage: Type.Integer({ minimum: 1, maximum: 500, default: 10 }),
    search: Type.Optional(
      Type.String({
        maxLength: SEARCH_MAX_LENGTH,
        description: "Brief's addition: only links with this text in their slug or code, destination or comment (any case).",
        examples: ['launch'],
      }),
    ),
    ...TagFilterQuery,
    workspaceId: WorkspaceId,
  }),
);
export type ListV3Query = Static<typeof ListV3Query>;

const linkFields = {
  id: Uuid,
  slug: Type.String(),
  isCustomSlug: Type.Boolean(),
  shortUrl: Type.String(),
  originalUrl: Type.String(),
  allowSearchEngineIndexing: Type.Boolean({ description: 'Always false: short links are served with noindex pages.' }),
  archived: Type.Boolean({ description: 'Always false: Brief has no archive.' }),
  suspended: Type.Boolean({ description: 'Blocked by the administrator (v2 `status: "blocked"`).' }),
  statsClicks: Type.Integer(),
  expiresAt: Type.Union([Timestamp, Type.Null()]),
  hasPassword: Type.Boolean({ description: "Brief's addition: whether visitors must enter a password." }),
  forwardQuery: Type.Boolean({ description: FORWARD_QUERY }),
  rules: Type.Array(RuleSchema, { description: `${RULES} \`[]\` when the link has none.`, examples: [RULES_EXAMPLE] }),
  maxVisits: Type.Union([Type.Integer(), Type.Null()], { description: `${MAX_VISITS} Always present.`, examples: [100] }),
  tags: Type.Array(Type.String(), {
    description: "Brief's addition (decision 0040): the link's tags, sorted ignoring case; `[]` when it has none.",
    examples: [['launch', 'newsletter']],
  }),
  preview: PreviewField,
  userId: Uuid,
  workspaceId: Uuid,
  comment: Type.String(),
  createdAt: Timestamp,
  updatedAt: Type.Union([Timestamp, Type.Null()]),
};

export const ListedLink = Type.Object({ domainName: Type.String(), ...linkFields });
export type ListedLink = Static<typeof ListedLink>;
export const OneLink = Type.Object({ domain: Type.String(), ...linkFields });
export type OneLink = Static<typeof OneLink>;

export const ListV3Result = Type.Object({
  links: Type.Array(ListedLink),
  metadata: Type.Object({ total: Type.Integer(), perPage: Type.Integer(), page: Type.Integer() }),
});
export type ListV3Result = Static<typeof ListV3Result>;

export const LinkPath = Type.Object({
  domain: Type.String({ description: 'The short domain, e.g. `go.example.com`.' }),
  slug: Type.String({ description: 'The slug or generated code of the link.' }),
});

export const LinkQuery = Type.Object({ workspaceId: WorkspaceId });

export const EditBody = Type.Object(
  {
    url: Type.Optional(Type.String({ description: 'A new destination, checked as a new link’s.' })),
    // Null first: Fastify's Ajv coerces types, and would turn a null into "" for a string branch tried first.
    comment: Type.Optional(Type.Union([Type.Null(), Type.String()], { description: 'A new note; null or empty removes it.' })),
    password: Type.Optional(Type.Union([Type.Null(), Type.String()], { description: 'A new password (≥ 6 characters); null removes it.' })),
    expiredAt: Type.Optional(
      Type.Union([Type.Null(), Type.String()], {
        description: 'A new expiry (ISO 8601 with a zone, a date and time that exist, in the future); null removes it.',
      }),
    ),
    forwardQuery: Type.Optional(Type.Boolean({ description: `${FORWARD_QUERY} Turning it off takes the link out of dedupe.` })),
    rules: Type.Optional(
      Type.Array(RuleSchema, {
        description: `${RULES} Replaces the link's rules; \`[]\` removes them. Rules take the link out of dedupe.`,
        examples: [RULES_EXAMPLE],
      }),
    ),
    maxVisits: Type.Optional(
      MaxVisits(`${MAX_VISITS} Raising it reopens a link that reached it; null removes it. A limit takes the link out of dedupe.`, 500),
    ),
    tags: Type.Optional(Tags(`${TAGS} Replaces the link's tags; \`[]\` removes them.`)),
    preview: Type.Optional(PreviewInput(" Replaces the link's card whole; null removes it.")),
  },
  { description: 'Only the fields given change.' },
);
export type EditBody = Static<typeof EditBody>;

export const Success = Type.Object({ success: Type.Literal(true) });
