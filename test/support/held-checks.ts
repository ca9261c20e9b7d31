// Password checks that count what runs at once and finish only when a test releases them: the
// bound on password checks is tested by counting, never by timing.
/** A stand-in for scrypt that counts what runs at once and finishes only when released. */
export function heldChecks(right: string) {
  const held: Array<() => void> = [];
  const counts = { running: 0, most: 0, ran: 0 };
  const verify = (password: string) =>
    new Promise<boolean>((resolve) => {
      counts.running++;
      counts.ran++;
      counts.most = Math.max(counts.most, counts.running);
      held.push(() => {
        counts.running--;
        resolve(password === right);
      });
    });
  /** Releases every held check, and those that start after them, until none is left. */
  const drain = async () => {
    for (;;) {
      await new Promise((resolve) => setImmediate(resolve));
      const next = held.shift();
      if (next === undefined) return;
      next();
    }
  };
  return { verify, counts, held, drain };
}
