// Timing helpers for tests that count by the clock.

/**
 * Waits out the last seconds before a quarter hour (the analytics store's slot), so that no
 * slot, hour or day of any time zone ends during a test; returns the time then.
 */
export async function awayFromBoundary(): Promise<number> {
  const left = 900_000 - (Date.now() % 900_000);
  if (left < 5_000) await new Promise((r) => setTimeout(r, left + 50));
  return Date.now();
}
