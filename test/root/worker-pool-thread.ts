// The thread of test/root/worker-pool.test.ts: tasks that answer, throw, hold until released, or end the thread.
import os from 'node:os';
import { serveTasks } from '../../src/worker-pool.js';

export type PoolTestTask =
  | { kind: 'double'; value: number }
  | { kind: 'throw'; message: string }
  /** Blocks the thread until the main thread stores a non-zero at `gate[0]` and notifies it; answers the value. */
  | { kind: 'hold'; gate: Int32Array; value: number }
  | { kind: 'priority' }
  | { kind: 'exit' };

serveTasks((task: PoolTestTask): number => {
  switch (task.kind) {
    case 'double':
      return task.value * 2;
    case 'throw':
      throw new Error(task.message);
    case 'hold':
      Atomics.wait(task.gate, 0, 0);
      return task.value;
    case 'priority':
      return os.getPriority(0);
    case 'exit':
      process.exit(3);
  }
});
