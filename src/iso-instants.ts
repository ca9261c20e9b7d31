// Instants as the API takes them: ISO 8601 with a date, a time and a zone. Links' expiry and the redirect
// rules' before/after and the analytics' ranges read them the same way. A leaf: the web app's typecheck reads it.

/** ISO 8601 with a date, a time and a zone, as JSON.stringify(new Date()) writes it. */
export const ISO_TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysIn(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!;
}

/**
 * Whether the parts of a timestamp the regex matched name a moment that exists. Date.parse
 * does not check this: it reads 2027-02-30 as 2027-03-02 and 24:00 as the next midnight.
 */
export function existsOnTheCalendar(parts: RegExpExecArray): boolean {
  const part = (i: number) => Number(parts[i] ?? 0); // absent seconds and zone (Z) are 0
  const month = part(2);
  const day = part(3);
  return (
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysIn(part(1), month) &&
    part(4) <= 23 &&
    part(5) <= 59 &&
    part(6) <= 59 &&
    part(7) <= 23 &&
    part(8) <= 59
  );
}
