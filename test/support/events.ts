import { NOTHING } from '../../src/analytics/enrich.js';
import type { ClickEvent } from '../../src/storage/stores/analytics.js';

/** An event of a person's visit with nothing else known: tests set the fields they count. */
export const personVisit = (linkId: number, time: number): ClickEvent => ({ time, linkId, ...NOTHING, rule: null, clicks: 1 });

/**
 * The top lists' dimensions, as GET /v3/shorten/analytics/top-{dimension} names them: the tests' own list, not src's.
 * These answer for a workspace or one link; LINK_TOP_LIST_DIMENSIONS only for one link.
 */
export const TOP_LIST_DIMENSIONS = [
  'browsers',
  'device-types',
  'short-links',
  'bots',
  'device-vendors',
  'operating-systems',
  'countries',
  'referers',
  'languages',
  'cities',
] as const;

/** The top lists of one link only (their `link` is required): what its visits took of its rules. */
export const LINK_TOP_LIST_DIMENSIONS = ['rules'] as const;
