// A thread that hashes and checks passwords (password-threads.ts starts it through WorkerPool): one scrypt
// hash at a time, at the lowest CPU priority, so that however many passwords arrive the event loop keeps its
// core. A hash that cannot be made (never expected) answers its error: the caller makes it on libuv's pool instead.
import { serveTasks } from '../worker-pool.js';
import type { PasswordJob } from './password-threads.js';
import { hashPasswordSync, verifyPasswordSync } from './scrypt.js';

serveTasks((job: PasswordJob): string | boolean =>
  job.op === 'hash' ? hashPasswordSync(job.kind, job.password) : verifyPasswordSync(job.kind, job.password, job.stored),
);
