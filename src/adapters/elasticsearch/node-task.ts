/**
 * A long operation of the node (the force merge of a first build of millions of listings) started as
 * a task and waited for by polling it. A request that waited for the operation itself is cut by the
 * client's timeout whatever its own: undici's headers timeout, set once for the connection, applies
 * to every request (the 1M first build's merge outlived the indexer client's 120 s).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@elastic/elasticsearch';

/** Between two looks at a running task: a merge takes seconds to minutes. */
export const TASK_POLL_MS = 1_000;

export interface TaskWait {
  /** How long the task may run before this gives up (it keeps running on the node). */
  deadlineMs: number;
  pollMs?: number;
}

/** Resolves when the node's task `taskId` has completed; throws when it failed or outlived the deadline. */
export async function awaitNodeTask(client: Pick<Client, 'tasks'>, taskId: string, { deadlineMs, pollMs = TASK_POLL_MS }: TaskWait): Promise<void> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const status = await client.tasks.get({ task_id: taskId });
    if (status.completed) {
      if (status.error) throw new Error(`the node's task ${taskId} (${status.task.action}) failed: ${status.error.type}: ${status.error.reason ?? ''}`);
      return;
    }
    if (Date.now() >= until) throw new Error(`the node's task ${taskId} (${status.task.action}) is still running after ${Math.round(deadlineMs / 1000)} s`);
    await sleep(pollMs);
  }
}
