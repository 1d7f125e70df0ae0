import type { Queue } from 'bull';
import { BullQueueDriver } from './bull.driver.js';
import { QUEUE_NAMES, QueueName } from './queue.types.js';

describe('BullQueueDriver.isLive', () => {
  /** A driver over queues whose one job answers these states, one per getState call. */
  const driverWith = (states: string[]) => {
    const job = {
      asked: 0,
      async getState() {
        job.asked++;
        return states.shift() ?? 'stuck';
      },
    };
    const queue = { getJob: async (id: string) => (id === 'known' ? job : null) } as unknown as Queue;
    const queues = Object.fromEntries(QUEUE_NAMES.map((name) => [name, queue])) as Record<QueueName, Queue>;
    return { driver: new BullQueueDriver(queues), job };
  };

  it('asks again when Bull answers "stuck" (the job was between two lists): a deferred job on its way to delayed is live', async () => {
    const { driver, job } = driverWith(['stuck', 'delayed']);
    await expect(driver.isLive(QUEUE_NAMES[0], 'known')).resolves.toBe(true);
    expect(job.asked).toBe(2);
  });

  it('answers false for a finished job, a missing one, and one stuck at every look', async () => {
    await expect(driverWith(['completed']).driver.isLive(QUEUE_NAMES[0], 'known')).resolves.toBe(false);
    await expect(driverWith([]).driver.isLive(QUEUE_NAMES[0], 'missing')).resolves.toBe(false);
    const { driver, job } = driverWith(['stuck', 'stuck', 'stuck', 'active']);
    await expect(driver.isLive(QUEUE_NAMES[0], 'known')).resolves.toBe(false);
    expect(job.asked).toBe(3);
  });
});
