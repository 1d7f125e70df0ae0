import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsOptional, IsString, Length, Matches, MaxLength, ValidateNested } from 'class-validator';
import { ACCENT_PATTERN, LandingPage, LandingPageSection, LIMITS, SECTIONS } from '../landing-page.js';

const length = (field: string, [min, max]: readonly [number, number]) =>
  Length(min, max, { message: min > 0 ? `${field} must be ${min} to ${max} characters long` : `${field} must be at most ${max} characters long` });

export class HeroDto {
  /** @example "Family recipes, finally in one place" */
  @IsString()
  @length('headline', LIMITS.hero.headline)
  headline: string;

  /** @example "Collect, share and cook the recipes your family loves." */
  @IsString()
  @length('subheadline', LIMITS.hero.subheadline)
  subheadline: string;

  /** @example "Get early access" */
  @IsString()
  @length('ctaLabel', LIMITS.hero.ctaLabel)
  ctaLabel: string;
}

export class FeatureDto {
  /** @example "Every recipe, one tap away" */
  @IsString()
  @length('title', LIMITS.feature.title)
  title: string;

  /** @example "Import from any website or snap a photo of grandma's card." */
  @IsString()
  @length('body', LIMITS.feature.body)
  body: string;
}

export class FaqDto {
  /** @example "Is it free?" */
  @IsString()
  @length('question', LIMITS.faq.question)
  question: string;

  /** @example "Yes, for families of up to ten people." */
  @IsString()
  @length('answer', LIMITS.faq.answer)
  answer: string;
}

export class CtaDto {
  /** @example "Start your family cookbook today" */
  @IsString()
  @length('headline', LIMITS.cta.headline)
  headline: string;
}

export class SignupFormDto {
  /** Show the sign-up form (a deployment without it answers 404 to sign-ups). @example true */
  @IsBoolean()
  enabled: boolean;

  /** @example "Join the waitlist" */
  @IsString()
  @length('buttonLabel', LIMITS.signup.buttonLabel)
  buttonLabel: string;

  /** Shown under the button. @example "We will only use your e-mail to tell you about Recipe Box." */
  @IsString()
  @length('consentText', LIMITS.signup.consentText)
  consentText: string;

  /** Shown on the thanks page. @example "Thanks! You're on the list." */
  @IsString()
  @length('successMessage', LIMITS.signup.successMessage)
  successMessage: string;
}

export class ThemeDto {
  /** The accent colour of buttons and highlights. @example "#5146E5" */
  @IsString()
  @Matches(ACCENT_PATTERN, { message: 'accent must be a colour like #5146E5' })
  accent: string;
}

/** A landing page (schemaVersion 1). Plain text in every field: markup stays text and is shown escaped. */
export class LandingPageDto implements LandingPage {
  @ApiProperty({ enum: [1], example: 1 })
  @IsIn([1], { message: 'schemaVersion must be 1' })
  schemaVersion: 1;

  @ApiProperty({ type: HeroDto })
  @ValidateNested()
  @Type(() => HeroDto)
  hero: HeroDto;

  @ApiProperty({ type: [FeatureDto], maxItems: LIMITS.features })
  @IsArray()
  @ArrayMaxSize(LIMITS.features, { message: `features must have at most ${LIMITS.features} items` })
  @ValidateNested({ each: true })
  @Type(() => FeatureDto)
  features: FeatureDto[];

  @ApiProperty({ type: [FaqDto], maxItems: LIMITS.faqs })
  @IsArray()
  @ArrayMaxSize(LIMITS.faqs, { message: `faq must have at most ${LIMITS.faqs} items` })
  @ValidateNested({ each: true })
  @Type(() => FaqDto)
  faq: FaqDto[];

  @ApiProperty({ type: CtaDto })
  @ValidateNested()
  @Type(() => CtaDto)
  cta: CtaDto;

  @ApiProperty({ type: SignupFormDto })
  @ValidateNested()
  @Type(() => SignupFormDto)
  signup: SignupFormDto;

  @ApiProperty({ type: ThemeDto })
  @ValidateNested()
  @Type(() => ThemeDto)
  theme: ThemeDto;
}

export class LandingPageResponseDto {
  /** @example app_01JC3Z8W5Q4M0B7T2K9X1D6F3H */
  appId: string;

  /** `default`: built from the app's name and description (never saved); `manual`: PUT; `generated`: written by AI. */
  @ApiProperty({ enum: ['default', 'manual', 'generated'], example: 'generated' })
  source: 'default' | 'manual' | 'generated';

  @ApiProperty({ type: LandingPageDto })
  page: LandingPageDto;

  /** When the page last changed; for a default page, when the app did. */
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-22T04:20:00.000Z' })
  updatedAt: string;
}

export class GenerateLandingPageDto {
  /** What to stress (audience, tone, the one thing that matters). Optional. @example "For busy parents; warm and short." */
  @IsOptional()
  @IsString()
  @MaxLength(2000, { message: 'prompt must be at most 2000 characters long' })
  prompt?: string;

  /** The sections to (re)write; the others keep their content. Default: all. */
  @ApiProperty({ enum: SECTIONS, isArray: true, required: false, example: ['hero', 'features'] })
  @IsOptional()
  @IsArray()
  @IsIn(SECTIONS, { each: true, message: `each value in sections must be one of: ${SECTIONS.join(', ')}` })
  sections?: LandingPageSection[];
}
