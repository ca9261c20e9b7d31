// The line coverage of src/ a test run measured: Node's own coverage (--experimental-test-coverage) written as
// lcov, one file a group of the run, merged here (a line is covered when any group ran it). Lines of the
// server run as a process (dist/, the end-to-end suites) are not seen; what the in-process suites run is.
import fs from 'node:fs';

export interface Coverage {
  readonly covered: number;
  readonly lines: number;
  /** Covered lines as a percentage of src/'s lines, to two decimals. */
  readonly percent: number;
}

export function srcCoverage(lcovFiles: readonly string[]): Coverage {
  /** file → line → hit at least once */
  const files = new Map<string, Map<number, boolean>>();
  for (const lcov of lcovFiles) {
    if (!fs.existsSync(lcov)) continue;
    let lines: Map<number, boolean> | undefined;
    for (const record of fs.readFileSync(lcov, 'utf8').split('\n')) {
      if (record.startsWith('SF:')) {
        const file = record.slice(3);
        lines = file.startsWith('src/') ? (files.get(file) ?? new Map()) : undefined;
        if (lines) files.set(file, lines);
      } else if (lines && record.startsWith('DA:')) {
        const [line, hits] = record.slice(3).split(',').map(Number);
        lines.set(line!, (lines.get(line!) ?? false) || hits! > 0);
      }
    }
  }
  let covered = 0;
  let lines = 0;
  for (const hits of files.values()) {
    for (const hit of hits.values()) {
      lines++;
      if (hit) covered++;
    }
  }
  return { covered, lines, percent: lines === 0 ? 0 : Math.floor((covered / lines) * 10_000) / 100 };
}
