import { createValidationPipe } from '../common/errors/validation.js';
import { plainlyValid } from './collect.service.js';
import { CollectDto } from './dto/collect.dto.js';

/** The beacon's quick check never takes a body CollectDto (through the validation pipe) would refuse or change. */
describe('plainlyValid (the beacon check before CollectDto)', () => {
  const pipe = createValidationPipe();
  const dto = (body: object) =>
    pipe.transform(body, { type: 'body', metatype: CollectDto }).then(
      (v: object) => ({ ...v }),
      () => 'refused',
    );
  const base = { appId: 'app_01JC3Z8W5Q4M0B7T2K9X1D6F3H', name: 'pageview', url: 'https://example.com/a?utm_source=x' };
  const bodies: object[] = [
    base,
    { ...base, referrer: 'https://news.example.org/', screenWidth: 1280 },
    { ...base, referrer: null, screenWidth: 0, props: { plan: 'pro' } },
    { ...base, screenWidth: 100_000 },
    { ...base, screenWidth: 100_001 },
    { ...base, screenWidth: 12.5 },
    { ...base, screenWidth: '1280' },
    { ...base, name: '' },
    { ...base, name: 'x'.repeat(41) },
    { ...base, name: 'a\u0007b' },
    { ...base, url: 'ftp://example.com/' },
    { ...base, url: 'https://exa mple.com/' },
    { ...base, url: `https://example.com/${'a'.repeat(2000)}` },
    { ...base, appId: 'a'.repeat(41) },
    { ...base, appId: 7 },
    { ...base, referrer: 5 },
    { ...base, props: ['a'] },
    { ...base, props: null },
    { ...base, extra: 1 },
    { appId: base.appId, name: 'pageview' },
  ];

  it.each(bodies.map((body) => [JSON.stringify(body).slice(0, 80), body]))('%s', async (_label, body) => {
    if (plainlyValid(body)) expect(await dto(body)).toEqual({ ...body });
  });

  it('takes the usual beacon', () => {
    expect(plainlyValid(bodies[1])).toBe(true);
    expect(plainlyValid(bodies[2])).toBe(true);
  });
});
