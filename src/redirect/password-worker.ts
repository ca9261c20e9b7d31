// A thread that checks passwords (password-workers.ts starts it): one scrypt hash at a time, at the
// lowest CPU priority, so that however many wrong passwords arrive the event loop keeps its core.
import os from 'node:os';
import { parentPort } from 'node:worker_threads';
import { verifyPasswordSync } from '../links/passwords.js';

try {
  // 0: this thread alone (on Linux the nice value is per thread); where refused, it runs at normal priority.
  os.setPriority(0, 19);
} catch {}

parentPort?.on('message', ({ password, stored }: { password: string; stored: string }) => {
  let right = false;
  try {
    right = verifyPasswordSync(password, stored);
  } catch {
    // A stored hash that cannot be computed (parameters out of range) matches nothing.
  }
  parentPort?.postMessage(right);
});
