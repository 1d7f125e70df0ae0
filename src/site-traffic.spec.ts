import { pino } from 'pino';
import { Writable } from 'node:stream';
import { SiteTraffic } from './logging.js';

describe('SiteTraffic (the site origins’ request log)', () => {
  function traffic() {
    const lines: Array<Record<string, unknown>> = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    });
    return { lines, log: new SiteTraffic(pino({ level: 'info' }, sink)) };
  }

  it('writes one line per host with its count by status, then starts over', async () => {
    const { lines, log } = traffic();
    for (let i = 0; i < 3; i++) log.count('a.sites.example', 200);
    log.count('a.sites.example', 304);
    log.count('b.sites.example', 404);
    log.flush();
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toEqual([
      expect.objectContaining({ msg: 'site requests', host: 'a.sites.example', requests: 4, statuses: { '200': 3, '304': 1 }, seconds: expect.any(Number) }),
      expect.objectContaining({ msg: 'site requests', host: 'b.sites.example', requests: 1, statuses: { '404': 1 } }),
    ]);
    log.flush();
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toHaveLength(2); // a period without requests writes nothing
  });

  it('counts hosts past the first thousand of a period together', async () => {
    const { lines, log } = traffic();
    for (let i = 0; i < 1005; i++) log.count(`h${i}.sites.example`, 200);
    log.flush();
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toHaveLength(1001);
    expect(lines.at(-1)).toEqual(expect.objectContaining({ host: '(other hosts)', requests: 5 }));
  });
});
