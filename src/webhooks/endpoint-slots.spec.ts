import { JobDeferred } from '../queue/queue.types.js';
import { EndpointSlot, EndpointSlots, MIN_DEFER_MS, SHORT_WAIT_MS } from './endpoint-slots.js';

/** A clock the test moves by hand. */
function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

async function deferredBy(slot: Promise<EndpointSlot>): Promise<number> {
  const err = await slot.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(JobDeferred);
  return (err as JobDeferred).delayMs;
}

async function take(slots: EndpointSlots, endpointId: string, n: number): Promise<EndpointSlot[]> {
  return Promise.all(Array.from({ length: n }, () => slots.take(endpointId)));
}

describe('EndpointSlots', () => {
  it('gives an endpoint an eighth of the slots at first, and always leaves an eighth to the others', () => {
    const slots = new EndpointSlots(128, 10_000);
    expect([slots.minCap, slots.maxCap]).toEqual([16, 112]);
    const small = new EndpointSlots(4, 10_000);
    expect([small.minCap, small.maxCap]).toEqual([1, 3]);
    const one = new EndpointSlots(1, 10_000);
    expect([one.minCap, one.maxCap]).toEqual([1, 1]);
  });

  it("sends a job over a hanging endpoint's cap back to the queue, while another endpoint's job gets a slot at once", async () => {
    const t = clock();
    const slots = new EndpointSlots(128, 10_000, t.now);
    await take(slots, 'we_hanging', 16);
    expect(await deferredBy(slots.take('we_hanging'))).toBeGreaterThanOrEqual(MIN_DEFER_MS);
    const other = await slots.take('we_other');
    expect(slots.stateOf('we_other')).toEqual({ inFlight: 1, cap: 16, waiting: 0 });
    other.release({ durationMs: 20, timedOut: false });
  });

  it('spaces the jobs it sends back at the pace the endpoint answers, longer as its attempts hang', async () => {
    const t = clock();
    const slots = new EndpointSlots(128, 10_000, t.now);
    const first = await take(slots, 'we_slow', 16);
    // Its attempts have taken 2 s so far: the next 16 jobs come back one slot's worth (2 s / 16) apart.
    t.advance(2000);
    const delays: number[] = [];
    for (let i = 0; i < 16; i++) delays.push(await deferredBy(slots.take('we_slow')));
    expect(delays[0]).toBe(125);
    expect(delays[15]).toBe(2000);
    // Timeouts: the average is the timeout now, and the cap stays at its floor.
    t.advance(8000);
    for (const slot of first) slot.release({ durationMs: 10_000, timedOut: true });
    expect(slots.stateOf('we_slow')).toMatchObject({ inFlight: 0, cap: 16 });
    await take(slots, 'we_slow', 16);
    const later = await deferredBy(slots.take('we_slow'));
    expect(later).toBe(625);
  });

  it("grows a fast endpoint's cap by one per quick attempt up to seven eighths, and halves it on a slow one", async () => {
    const slots = new EndpointSlots(128, 10_000);
    for (let i = 0; i < 200; i++) (await slots.take('we_fast')).release({ durationMs: 5, timedOut: false });
    expect(slots.stateOf('we_fast')?.cap).toBe(112);
    (await slots.take('we_fast')).release({ durationMs: 1500, timedOut: false });
    expect(slots.stateOf('we_fast')?.cap).toBe(56);
    (await slots.take('we_fast')).release({ durationMs: 300, timedOut: true });
    expect(slots.stateOf('we_fast')?.cap).toBe(28);
    for (let i = 0; i < 5; i++) (await slots.take('we_fast')).release({ durationMs: 300, timedOut: true });
    expect(slots.stateOf('we_fast')?.cap).toBe(16);
  });

  it('lets a job over a fast endpoint’s cap wait in the worker for the next slot instead of going back to the queue', async () => {
    const slots = new EndpointSlots(128, 10_000);
    const held = await take(slots, 'we_quick', 16);
    held[0].release({ durationMs: 4, timedOut: false }); // its pace is known now, and its cap 17
    held.push(...(await take(slots, 'we_quick', 2)));
    const waiting = slots.take('we_quick');
    expect(slots.stateOf('we_quick')).toEqual({ inFlight: 17, cap: 17, waiting: 1 });
    held[1].release(); // sent nothing: the slot goes to the waiting job
    const granted = await waiting;
    expect(slots.stateOf('we_quick')).toEqual({ inFlight: 17, cap: 17, waiting: 0 });
    granted.release();
    granted.release(); // a second release does nothing
    expect(slots.stateOf('we_quick')?.inFlight).toBe(16);
  });

  it(`sends a waiting job back to the queue when no slot frees up within ${SHORT_WAIT_MS} ms`, async () => {
    const slots = new EndpointSlots(128, 10_000);
    const held = await take(slots, 'we_stuck', 16);
    held[0].release({ durationMs: 4, timedOut: false });
    await take(slots, 'we_stuck', 2);
    const waiting = slots.take('we_stuck');
    expect(slots.stateOf('we_stuck')?.waiting).toBe(1);
    expect(await deferredBy(waiting)).toBeGreaterThanOrEqual(MIN_DEFER_MS);
    expect(slots.stateOf('we_stuck')).toMatchObject({ inFlight: 17, waiting: 0 });
  });
});
