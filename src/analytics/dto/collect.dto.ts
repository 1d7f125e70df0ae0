import { Type } from 'class-transformer';
import { IsInt, IsObject, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';

/** A pageview or custom event from a developer's own site (the tracker script sends it). */
export class CollectDto {
  /** @example app_01JC3Z8W5Q4M0B7T2K9X1D6F3H */
  @IsString()
  @MaxLength(40)
  appId: string;

  /**
   * `pageview`, or a custom event name of 1–40 characters (counted by the `events` metric and `breakdown?property=event`).
   * @example pageview
   */
  @IsString()
  @Matches(/^[^\p{Cc}\p{Cs}]{1,40}$/u, { message: 'name must be 1 to 40 characters without control characters' })
  name: string;

  /**
   * The page's full URL. Only its pathname and `utm_source`/`utm_medium`/`utm_campaign`/`ref` are kept.
   * @example https://recipes.example.com/pricing?utm_source=newsletter
   */
  @IsString()
  @MaxLength(2000)
  @Matches(/^https?:\/\/\S+$/, { message: 'url must be an absolute http(s) URL' })
  url: string;

  /**
   * `document.referrer`. Only its host is kept, and only when it is another site.
   * @example https://news.example.org/item?id=1
   */
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  referrer?: string | null;

  /**
   * The window's width in CSS pixels: tells phones and tablets from desktops when the User-Agent does not.
   * @example 1280
   */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(100_000)
  screenWidth?: number;

  /**
   * Up to 10 string pairs describing a custom event (keys up to 40, values up to 200 characters): stored with the event, a value that looks like an e-mail address as `(redacted)`; ignored on pageviews.
   * @example { "plan": "pro" }
   */
  @IsOptional()
  @IsObject()
  props?: Record<string, string>;
}
