import { NOTHING } from '../../src/analytics/enrich.js';
import type { ClickEvent } from '../../src/storage/stores/analytics.js';

/** An event of a person's visit with nothing else known: tests set the fields they count. */
export const personVisit = (linkId: number, time: number): ClickEvent => ({ time, linkId, ...NOTHING, clicks: 1 });

/** The top lists' dimensions, as GET /v3/shorten/analytics/top-{dimension} names them: the tests' own list, not src's. */
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
