// One wrk run (one thread) for the benchmark's loads (bench/load.ts) and the paced load (harness/paced-load.ts):
// the Lua script and its arguments are theirs; what wrk printed is read by harness/wrk-result.ts.
import { execFile } from 'node:child_process';
import fs from 'node:fs';

const hasTaskset = fs.existsSync('/usr/bin/taskset') || fs.existsSync('/bin/taskset');

/** A load's target and size: 127.0.0.1:port, named `host` in the requests, by `connections` for `seconds`. */
export interface WrkLoad {
  port: number;
  host: string;
  connections: number;
  seconds: number;
}

/** One run: the load (the script sends its Host) and the script that makes its requests. */
export interface WrkRun extends Omit<WrkLoad, 'host'> {
  /** The Lua script that makes the requests and prints the result. */
  script: string;
  /** What the script reads after `--`. */
  scriptArgs: string[];
  /** How long past `seconds` wrk may take before it counts as hung. */
  graceSeconds: number;
  /** On core 0 (taskset, where there is one); otherwise wrk inherits this process's core (pinSelf in harness/servers.ts). */
  onCoreZero?: boolean;
}

/** A fresh run id for a load, so that its new URLs and random picks never repeat an earlier load's. */
export const freshRunId = (): string => Math.floor(Math.random() * 36 ** 6).toString(36);

/** Runs wrk and returns what it printed. */
export function runWrk(run: WrkRun): Promise<string> {
  const wrk = [
    'wrk',
    '-t1',
    `-c${run.connections}`,
    `-d${run.seconds}s`,
    '--timeout',
    '10s',
    '-s',
    run.script,
    `http://127.0.0.1:${run.port}`,
    '--',
    ...run.scriptArgs,
  ];
  const [command, ...args] = run.onCoreZero && hasTaskset ? ['taskset', '-c', '0', ...wrk] : wrk;
  return new Promise<string>((resolve, reject) => {
    execFile(command!, args, { timeout: (run.seconds + run.graceSeconds) * 1000 }, (error, out, err) =>
      error ? reject(new Error(`wrk failed: ${error.message}\n${err}`)) : resolve(out),
    );
  });
}
