import { BadRequestException, BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { createValidationPipe } from '../common/errors/validation.js';
import { AnalyticsCollector } from './analytics-collector.js';
import { AnalyticsError } from './analytics.errors.js';
import { CollectDto } from './dto/collect.dto.js';
import { isStorableText } from './storable-text.js';

const MAX_PROPS = 10;
const FIELDS = new Set(['appId', 'name', 'url', 'referrer', 'screenWidth', 'props']);
const NAME = /^[^\p{Cc}\p{Cs}]{1,40}$/u;
const URL_SHAPE = /^https?:\/\/\S+$/;

/**
 * Whether CollectDto (with the validation pipe's whitelist and forbidden extra fields) certainly takes
 * this body as it is: each rule as the DTO's or stricter (lengths in UTF-16 units, which are never
 * fewer than the validator's characters; a width only as a number). False sends it through the DTO.
 */
export function plainlyValid(body: object): boolean {
  const event = body as Record<string, unknown>;
  for (const key in event) if (!FIELDS.has(key)) return false;
  const { appId, name, url, referrer, screenWidth, props } = event;
  return (
    typeof appId === 'string' &&
    appId.length <= 40 &&
    typeof name === 'string' &&
    NAME.test(name) &&
    typeof url === 'string' &&
    url.length <= 2000 &&
    URL_SHAPE.test(url) &&
    (referrer === undefined || referrer === null || (typeof referrer === 'string' && referrer.length <= 2000)) &&
    (screenWidth === undefined || (typeof screenWidth === 'number' && Number.isInteger(screenWidth) && screenWidth >= 0 && screenWidth <= 100_000)) &&
    (props === undefined || (typeof props === 'object' && props !== null && !Array.isArray(props)))
  );
}

/** POST /collect: checks the event, then hands it to the collector. */
@Injectable()
export class CollectService implements BeforeApplicationShutdown {
  private readonly validation = createValidationPipe();
  /** Shutting down: the lean path leaves beacons to the route (which Fastify answers 503 once it closes). */
  closing = false;

  constructor(private readonly collector: AnalyticsCollector) {}

  /**
   * `/_platform/collect` on a site's own origin: the event counts for the site's app, whatever the
   * body says (a page can count only for the app it is served by).
   */
  collectForSite(appId: string, body: unknown, ip: string, headers: Record<string, string | string[] | undefined>): Promise<void> {
    return this.collect(typeof body === 'object' && body !== null && !Array.isArray(body) ? { ...body, appId } : body, ip, headers);
  }

  beforeApplicationShutdown(): void {
    this.closing = true;
  }

  async collect(body: unknown, ip: string, headers: Record<string, string | string[] | undefined>): Promise<void> {
    await this.take(await this.read(body), ip, headers);
  }

  private take(event: CollectDto, ip: string, headers: Record<string, string | string[] | undefined>, url = new URL(event.url)): void | Promise<void> {
    return this.collector.collect(
      {
        appId: event.appId,
        ip,
        headers,
        pathname: url.pathname,
        search: url.search,
        siteHost: url.host,
        referrer: event.referrer ?? undefined,
        screenWidth: event.screenWidth,
        props: event.props,
      },
      event.name,
    );
  }

  /**
   * The lean path's beacon (src/analytics/collect-route.ts): a body that passes every check of `read` without
   * the DTO is taken — true once it is, or a promise while the app or the day's salt is read; any other
   * answers false, having done nothing (the route then reads it again and answers it, errors and all).
   */
  collectPlain(body: unknown, ip: string, headers: Record<string, string | string[] | undefined>): boolean | Promise<void> {
    if (typeof body !== 'object' || body === null || Array.isArray(body) || !plainlyValid(body)) return false;
    const event = body as CollectDto;
    const url = urlOf(event.url);
    if (!url || propsProblem(event.props)) return false;
    const pending = this.take(event, ip, headers, url);
    return pending instanceof Promise ? pending : true;
  }

  /** The body arrives parsed, as JSON or as text holding JSON, within the JSON limits of every route (see route-config.ts). */
  private async read(body: unknown): Promise<CollectDto> {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw AnalyticsError.event('The body must be a JSON object');
    // The usual beacon passes a check as strict as CollectDto's without class-validator's cost; any other body gets the DTO's own answer.
    const event = plainlyValid(body) ? (body as CollectDto) : ((await this.validation.transform(body, { type: 'body', metatype: CollectDto })) as CollectDto);
    if (!URL.canParse(event.url))
      throw new BadRequestException({ message: 'url must be an absolute http(s) URL', details: ['url must be an absolute http(s) URL'] });
    if (propsProblem(event.props)) {
      throw AnalyticsError.event(`props must be at most ${MAX_PROPS} string pairs (keys up to 40, values up to 200 characters, no control characters)`);
    }
    return event;
  }
}

/** The URL, or undefined where `new URL` throws (one parse, where `URL.canParse` and then `new URL` parsed twice). */
function urlOf(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** Whether a beacon's props break their rules (at most MAX_PROPS string pairs of bounded, storable text). */
function propsProblem(props: Record<string, string> | undefined): boolean {
  if (props === undefined) return false;
  let count = 0;
  for (const key in props) {
    const value: unknown = props[key];
    if (++count > MAX_PROPS || key.length > 40 || typeof value !== 'string' || value.length > 200 || !isStorableText(key) || !isStorableText(value))
      return true;
  }
  return false;
}
