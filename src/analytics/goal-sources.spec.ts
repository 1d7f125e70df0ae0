import { eventPropsPair, eventPropsParts, EVENT_PROPS_PREFIX } from './dimensions.js';
import { goalSource } from './goal-sources.js';
import type { GoalMatcher } from './goals.service.js';

const signup: GoalMatcher = { name: 'Sign-up', event: 'signup', page: null, pageLike: null };
const download: GoalMatcher = { name: 'Download', event: 'Download', page: null, pageLike: null };
const pricing: GoalMatcher = { name: 'Visit /pricing', event: null, page: '/pricing', pageLike: '/pricing' };
const blog: GoalMatcher = { name: 'Visit /blog/*', event: null, page: '/blog/*', pageLike: '/blog/%' };

describe('goalSource: where a goal is counted', () => {
  it('reads an event goal from the `event` rollups without filters, and from `evt+props.<key>` with one props filter', () => {
    expect(goalSource(download, [])).toEqual({
      kind: 'rollup',
      read: { dimension: 'event', value: 'Download', completions: 'events', unfolded: [['event', 'Download']], propsKey: null, onlyPageviews: false },
    });
    expect(goalSource(download, [{ property: 'props.format', value: 'pdf' }])).toEqual({
      kind: 'rollup',
      read: {
        dimension: 'evt+props.format',
        value: 'Download\u001epdf',
        completions: 'events',
        unfolded: [
          ['event', 'Download'],
          ['props.format', 'pdf'],
        ],
        propsKey: 'props.format',
        onlyPageviews: false,
      },
    });
  });

  it('reads an exact page goal from the `page` rollups (pageviews only), a wildcard one and Sign-up from raw rows', () => {
    expect(goalSource(pricing, [])).toEqual({
      kind: 'rollup',
      read: { dimension: 'page', value: '/pricing', completions: 'pageviews', unfolded: [['page', '/pricing']], propsKey: null, onlyPageviews: true },
    });
    expect(goalSource(blog, [])).toEqual({ kind: 'raw' });
    expect(goalSource(signup, [])).toEqual({ kind: 'signups' });
  });

  it('answers nothing for page goals and Sign-up under a props filter (neither carries props), raw rows under any other filter', () => {
    const props = [{ property: 'props.format' as const, value: 'pdf' }];
    expect(goalSource(pricing, props)).toEqual({ kind: 'none' });
    expect(goalSource(blog, props)).toEqual({ kind: 'none' });
    expect(goalSource(signup, props)).toEqual({ kind: 'none' });
    for (const goal of [signup, download, pricing, blog]) {
      expect(goalSource(goal, [{ property: 'page', value: '/' }])).toEqual({ kind: 'raw' });
      expect(goalSource(goal, [...props, { property: 'props.plan', value: 'pro' }])).toEqual({ kind: 'raw' });
    }
  });
});

describe('evt+props.<key>: an event name and a props value as one rollup value', () => {
  it('joins and splits them back, whatever the characters (a separator neither may hold)', () => {
    const [dimension, value] = eventPropsPair('Down:load', 'file.format', 'a=b:c');
    expect(dimension).toBe(`${EVENT_PROPS_PREFIX}file.format`);
    expect(dimension.startsWith('props.')).toBe(false);
    expect(eventPropsParts(dimension, value)).toEqual({ event: 'Down:load', propsDimension: 'props.file.format', propsValue: 'a=b:c' });
    expect(eventPropsParts('props.format', 'pdf')).toBeNull();
    expect(eventPropsParts('event', 'Download')).toBeNull();
  });

  it('fits the dimension column (50) with a key of 40', () => {
    expect(eventPropsPair('x', 'k'.repeat(40), 'v')[0].length).toBe(50);
  });
});
