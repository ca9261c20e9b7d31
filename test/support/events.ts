import type { ClickEvent } from '../../src/storage/stores/analytics.js';

/** An event of a person's visit with nothing else known: tests set the fields they count. */
export const personVisit = (linkId: number, time: number): ClickEvent => ({
  time,
  linkId,
  bot: null,
  browser: null,
  browserVersion: null,
  os: null,
  deviceType: null,
  deviceVendor: null,
  language: null,
  referrerHost: null,
  country: null,
  city: null,
  clicks: 1,
});
