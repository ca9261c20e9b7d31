// The app's log as a test reads it.
import { Writable } from 'node:stream';

/** Log lines (parsed) the app writes to `destination`. */
export function logCollector(): { lines: Array<Record<string, unknown>>; destination: Writable } {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      callback();
    },
  });
  return { lines, destination };
}
