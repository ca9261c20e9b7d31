// Password checks that count what runs at once and finish only when a test releases them: the
// bound on password hashes is tested by counting, never by timing.
import type { PasswordJob } from '../../src/passwords/password-threads.js';
import { hashPasswordInProcess } from '../../src/passwords/scrypt.js';

/**
 * A stand-in for the password threads: a check (`verify`, or a pool's `verify` job) counts what runs at once
 * and finishes only when released, right for `right`; a pool's `hash` job is made at once, uncounted (a
 * link or person made before the checks under test).
 */
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
  /** What a PasswordPool runs: `new PasswordPool({ run })`. */
  const run = (job: PasswordJob): Promise<string | boolean> =>
    job.op === 'hash' ? hashPasswordInProcess(job.kind, job.password) : verify(job.password);
  /** Releases every held check, and those that start after them, until none is left. */
  const drain = async () => {
    for (;;) {
      await new Promise((resolve) => setImmediate(resolve));
      const next = held.shift();
      if (next === undefined) return;
      next();
    }
  };
  return { verify, run, counts, held, drain };
}

/** Requests sent at once: `answers` holds their answers in the order they come, `all` every one in the order sent. */
export function asAnswered<T>(requests: Array<Promise<T>>): { answers: T[]; all: Promise<T[]> } {
  const answers: T[] = [];
  const all = Promise.all(
    requests.map((request) =>
      request.then((answer) => {
        answers.push(answer);
        return answer;
      }),
    ),
  );
  return { answers, all };
}
