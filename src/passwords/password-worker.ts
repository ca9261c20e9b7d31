// A thread that hashes and checks passwords (password-threads.ts starts it): one scrypt hash at a time,
// at the lowest CPU priority, so that however many passwords arrive the event loop keeps its core.
import os from 'node:os';
import { parentPort } from 'node:worker_threads';
import type { PasswordJob } from './password-threads.js';
import { hashPasswordSync, verifyPasswordSync } from './scrypt.js';

try {
  // 0: this thread alone (on Linux the nice value is per thread); where refused, it runs at normal priority.
  os.setPriority(0, 19);
} catch {}

parentPort?.on('message', (job: PasswordJob) => {
  try {
    parentPort?.postMessage(job.op === 'hash' ? hashPasswordSync(job.kind, job.password) : verifyPasswordSync(job.kind, job.password, job.stored));
  } catch (error) {
    // A hash that cannot be made (never expected): the caller makes it on libuv's pool instead.
    parentPort?.postMessage({ failed: String(error) });
  }
});
