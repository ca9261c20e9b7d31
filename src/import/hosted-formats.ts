// `--format shlink|kutt|bitly`: what those shorteners give their users (decision 0025 has the sources):
// - Shlink: the CSV its web client exports (createdAt, shortUrl, longUrl, title, tags, visits), or the
//   JSON pages of GET /rest/v3/short-urls ({shortUrls: {data: [...]}});
// - Kutt: the JSON pages of GET /api/v2/links ({data: [...]});
// - Bitly: the CSV its dashboard exports, or the JSON pages of GET /v4/groups/{guid}/bitlinks ({links: [...]}).
// Tags are carried over (decision 0040); per-visit history is not (the exports hold no visits).
import { jsonValues, looksLikeJson, type OpenedFile, pagedItems, wholeText } from './input.js';
import { type Columns, count, csvRows, RowProblem, readRow, type SourceRow, shortUrlParts, tagList, text, time } from './source-rows.js';

/** Bitly's shared domains: nobody can own them, so their back-halves go on Brief's default domain. */
const BITLY_SHARED = new Set(['bit.ly', 'j.mp', 'bitly.is']);

const str = (value: unknown): string | undefined => (typeof value === 'string' ? text(value) : typeof value === 'number' ? String(value) : undefined);

/** Rows from JSON pages, or from CSV when the file is not JSON (and `csv` is given). */
async function* pagesOrCsv(
  file: OpenedFile,
  formatName: string,
  pageItems: (page: Record<string, unknown>) => unknown,
  item: (item: Record<string, unknown>) => Omit<SourceRow, 'where'>,
  csv?: (file: OpenedFile) => AsyncIterable<SourceRow>,
): AsyncGenerator<SourceRow> {
  if (csv && !looksLikeJson(file.first)) {
    yield* csv(file);
    return;
  }
  for (const { item: value, where } of pagedItems(jsonValues(await wholeText(file.chunks)), pageItems, formatName)) {
    yield readRow(where, () => item(value));
  }
}

// Shlink ------------------------------------------------------------------------------------------

const SHLINK_COLUMNS = {
  longUrl: ['longurl'],
  shortUrl: ['shorturl'],
  shortCode: ['shortcode'],
  domain: ['domain'],
  title: ['title'],
  createdAt: ['createdat', 'datecreated', 'created'],
  visits: ['visits', 'visitscount'],
  tags: ['tags'],
} satisfies Columns<string>;

function shlinkItem(item: Record<string, unknown>): Omit<SourceRow, 'where'> {
  const meta = (item.meta ?? {}) as Record<string, unknown>;
  const summary = (item.visitsSummary ?? {}) as Record<string, unknown>;
  const domain = str(item.domain);
  const maxVisits = count(meta.maxVisits, 'maxVisits');
  return {
    url: str(item.longUrl),
    key: str(item.shortCode),
    // null (or DEFAULT) is Shlink's default domain: Brief's default domain.
    domain: domain === 'DEFAULT' ? undefined : domain,
    title: str(item.title),
    created: time(item.dateCreated, 'dateCreated'),
    expires: time(meta.validUntil, 'validUntil'),
    maxVisits,
    limitedVisits: maxVisits === undefined ? undefined : shlinkLimitedVisits(item, summary),
    clicks: count(summary.total ?? item.visitsCount, 'visits'),
    forwardQuery: typeof item.forwardQuery === 'boolean' ? item.forwardQuery : undefined,
    tags: tagList(item.tags),
  };
}

/** The visits a Shlink link has used of its limit: its people's (Brief counts no bots), else all it has counted. */
function shlinkLimitedVisits(item: Record<string, unknown>, summary: Record<string, unknown>): number | undefined {
  return count(summary.nonBots, 'visitsSummary.nonBots') ?? count(summary.total, 'visitsSummary.total') ?? count(item.visitsCount, 'visitsCount');
}

const shlinkCsv = (file: OpenedFile) =>
  csvRows(file.chunks, SHLINK_COLUMNS, 'longUrl', "Shlink's", (values) => {
    // The web client's export has the short URL (its host is the domain, its path the code); others name them apart.
    const parts = shortUrlParts(values.shortUrl);
    return {
      url: text(values.longUrl),
      key: text(values.shortCode) ?? parts.key,
      domain: text(values.domain) ?? parts.domain,
      title: text(values.title),
      created: time(values.createdAt, 'createdAt'),
      clicks: count(values.visits, 'visits'),
      tags: tagList(values.tags),
    };
  });

export const shlinkRows = (file: OpenedFile) =>
  pagesOrCsv(file, 'Shlink', (page) => (page.shortUrls as Record<string, unknown> | undefined)?.data, shlinkItem, shlinkCsv);

// Kutt --------------------------------------------------------------------------------------------

/** Kutt's public instance: nobody else can own its domain, so its keys go on Brief's default domain. */
const KUTT_SHARED = 'kutt.it';

function kuttItem(item: Record<string, unknown>): Omit<SourceRow, 'where'> {
  const parts = shortUrlParts(str(item.link));
  const domain = str(item.domain) ?? (parts.domain === KUTT_SHARED ? undefined : parts.domain);
  return {
    url: str(item.target),
    key: str(item.address) ?? parts.key,
    // A link on Kutt's own domain has none of its own; its short URL's host says which one it was.
    domain,
    comment: str(item.description),
    created: time(item.created_at, 'created_at'),
    expires: time(item.expire_in, 'expire_in'),
    clicks: count(item.visit_count, 'visit_count'),
    blocked: item.banned === true,
    hasPassword: item.password === true,
  };
}

export const kuttRows = (file: OpenedFile) => pagesOrCsv(file, 'Kutt', (page) => page.data, kuttItem);

// Bitly -------------------------------------------------------------------------------------------

/** A Bitlink ("bit.ly/abc", "https://brand.co/abc"): its key, on its domain unless that is one of Bitly's own. */
function bitlink(value: string | undefined): { domain?: string; key?: string } {
  const parts = shortUrlParts(value);
  return parts.domain && BITLY_SHARED.has(parts.domain) ? { key: parts.key } : parts;
}

function bitlyItem(item: Record<string, unknown>): Omit<SourceRow, 'where'> {
  return {
    url: str(item.long_url),
    ...bitlink(str(item.id) ?? str(item.link)),
    title: str(item.title),
    created: time(item.created_at, 'created_at'),
    tags: tagList(item.tags),
  };
}

const BITLY_COLUMNS = {
  longUrl: ['longurl', 'originalurl', 'destinationurl', 'destination'],
  bitlink: ['bitlink', 'shortlink', 'shorturl', 'link', 'id'],
  customLink: ['customlink', 'custombitlink', 'custombitlinks'],
  title: ['title'],
  created: ['datecreated', 'createdat', 'created', 'creationdate'],
  clicks: ['clicks', 'totalclicks', 'engagements', 'totalengagements'],
  tags: ['tags'],
} satisfies Columns<string>;

const bitlyCsv = (file: OpenedFile) =>
  csvRows(file.chunks, BITLY_COLUMNS, 'longUrl', "Bitly's", (values) => {
    // A custom back-half is the link people were given: it wins over the generated one.
    const custom = text(values.customLink)?.split(/[\s,]+/)[0];
    if (!values.bitlink && !custom) throw new RowProblem('it has no Bitlink');
    return {
      url: text(values.longUrl),
      ...bitlink(custom ?? values.bitlink),
      title: text(values.title),
      created: time(values.created, 'created'),
      clicks: count(values.clicks, 'clicks'),
      tags: tagList(values.tags),
    };
  });

export const bitlyRows = (file: OpenedFile) => pagesOrCsv(file, 'Bitly', (page) => page.links, bitlyItem, bitlyCsv);
