import { backoffDelay } from './queue.types.js';

describe('backoffDelay', () => {
  it('doubles per attempt, jittered within the upper half', () => {
    expect(backoffDelay(1000, 1, () => 0)).toBe(500);
    expect(backoffDelay(1000, 1, () => 0.999)).toBe(1000);
    expect(backoffDelay(1000, 2, () => 0)).toBe(1000);
    expect(backoffDelay(1000, 3, () => 0)).toBe(2000);
    expect(backoffDelay(30_000, 3, () => 0.5)).toBe(90_000);
  });
});
