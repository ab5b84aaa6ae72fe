/** Waiting for a task of the node (a force merge) by polling it: done, failed, or past its deadline. */
import { expect } from 'chai';
import type { Client, estypes } from '@elastic/elasticsearch';
import { awaitNodeTask } from '../../../src/adapters/elasticsearch/node-task.js';

/** A node whose task completes at its `completesAt`-th look, with `error` when it failed; counts the looks. */
function nodeWithTask(completesAt: number, error?: estypes.ErrorCause) {
  const looks: string[] = [];
  const client = {
    tasks: {
      get: async ({ task_id }: { task_id: string }) => {
        looks.push(task_id);
        const completed = looks.length >= completesAt;
        return { completed, task: { action: 'indices:admin/forcemerge' }, ...(completed && error ? { error } : {}) };
      },
    },
  } as unknown as Pick<Client, 'tasks'>;
  return { client, looks };
}

describe('awaitNodeTask', () => {
  it('looks at the task until it has completed', async () => {
    const { client, looks } = nodeWithTask(3);
    await awaitNodeTask(client, 'node-1:42', { deadlineMs: 10_000, pollMs: 1 });
    expect(looks).to.deep.equal(['node-1:42', 'node-1:42', 'node-1:42']);
  });

  it("reports the task's failure with its reason", async () => {
    const { client } = nodeWithTask(2, { type: 'illegal_state_exception', reason: 'merge aborted' });
    const failure = await awaitNodeTask(client, 'node-1:7', { deadlineMs: 10_000, pollMs: 1 }).then(
      () => null,
      (error: Error) => error,
    );
    expect(failure?.message).to.include('node-1:7').and.to.include('indices:admin/forcemerge').and.to.include('merge aborted');
  });

  it('gives up past its deadline, naming the task still running', async () => {
    const { client, looks } = nodeWithTask(Number.POSITIVE_INFINITY);
    const failure = await awaitNodeTask(client, 'node-1:9', { deadlineMs: 30, pollMs: 5 }).then(
      () => null,
      (error: Error) => error,
    );
    expect(failure?.message).to.include('node-1:9').and.to.include('still running');
    expect(looks.length).to.be.within(2, 20);
  });
});
