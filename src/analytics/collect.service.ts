import { BadRequestException, Injectable } from '@nestjs/common';
import { createValidationPipe } from '../common/errors/validation.js';
import { AnalyticsCollector } from './analytics-collector.js';
import { AnalyticsError } from './analytics.errors.js';
import { CollectDto } from './dto/collect.dto.js';
import { isStorableText } from './storable-text.js';

const MAX_PROPS = 10;

/** POST /collect: checks the event, then hands it to the collector. */
@Injectable()
export class CollectService {
  private readonly validation = createValidationPipe();

  constructor(private readonly collector: AnalyticsCollector) {}

  /**
   * `/_platform/collect` on a site's own origin: the event counts for the site's app, whatever the
   * body says (a page can count only for the app it is served by).
   */
  collectForSite(appId: string, body: unknown, ip: string, headers: Record<string, string | string[] | undefined>): Promise<void> {
    return this.collect(typeof body === 'object' && body !== null && !Array.isArray(body) ? { ...body, appId } : body, ip, headers);
  }

  async collect(body: unknown, ip: string, headers: Record<string, string | string[] | undefined>): Promise<void> {
    const event = await this.read(body);
    const url = new URL(event.url);
    await this.collector.collect(
      {
        appId: event.appId,
        ip,
        headers,
        pathname: url.pathname,
        search: url.searchParams,
        siteHost: url.host,
        referrer: event.referrer ?? undefined,
        screenWidth: event.screenWidth,
      },
      event.name,
    );
  }

  /** The body arrives parsed, as JSON or as text holding JSON, within the JSON limits of every route (see route-config.ts). */
  private async read(body: unknown): Promise<CollectDto> {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw AnalyticsError.event('The body must be a JSON object');
    const event = (await this.validation.transform(body, { type: 'body', metatype: CollectDto })) as CollectDto;
    if (!URL.canParse(event.url))
      throw new BadRequestException({ message: 'url must be an absolute http(s) URL', details: ['url must be an absolute http(s) URL'] });
    const props = Object.entries(event.props ?? {});
    if (
      props.length > MAX_PROPS ||
      props.some(([k, v]) => k.length > 40 || typeof v !== 'string' || v.length > 200 || !isStorableText(k) || !isStorableText(v))
    ) {
      throw AnalyticsError.event(`props must be at most ${MAX_PROPS} string pairs (keys up to 40, values up to 200 characters, no control characters)`);
    }
    return event;
  }
}
