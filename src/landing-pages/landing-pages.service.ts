import { Injectable } from '@nestjs/common';
import type { App } from '../apps/app.entity.js';
import { AppsService } from '../apps/apps.service.js';
import type { Principal } from '../common/request-context/principal.js';
import { Transactions } from '../database/transactions.js';
import { LandingPageResponseDto } from './dto/landing-page.dto.js';
import { defaultLandingPage, LandingPage, LandingPageSection, SECTIONS } from './landing-page.js';
import { LandingPageGenerator } from './landing-page-generator.js';
import { LandingPageRow, LandingPageSource } from './landing-page.entity.js';
import { LandingPagesRepository } from './landing-pages.repository.js';

/** Every app's landing page: read (or its default), replaced by hand, or written by AI. */
@Injectable()
export class LandingPagesService {
  constructor(
    private readonly db: Transactions,
    private readonly pages: LandingPagesRepository,
    private readonly apps: AppsService,
    private readonly generator: LandingPageGenerator,
  ) {}

  async get(accountId: string, appId: string): Promise<LandingPageResponseDto> {
    const app = await this.apps.requireOwned(accountId, appId);
    return view(app, await this.pages.find(app.id));
  }

  /** Replaces the page (`source: manual`). Emits `app.updated` with `changed: ['landingPage']`. */
  put(accountId: string, appId: string, page: LandingPage): Promise<LandingPageResponseDto> {
    return this.save(accountId, appId, 'manual', page);
  }

  /**
   * Has AI write the sections asked for (the others keep their content) and saves the result
   * (`source: generated`). The generations run before the transaction, which only saves.
   */
  async generate(
    principal: Principal,
    appId: string,
    input: { prompt?: string; sections?: LandingPageSection[] },
    signal: AbortSignal,
  ): Promise<LandingPageResponseDto> {
    const app = await this.apps.requireOwned(principal.accountId, appId);
    const current = (await this.pages.find(app.id))?.page ?? defaultLandingPage(app);
    const sections = input.sections?.length ? input.sections : [...SECTIONS];
    const page = await this.generator.generate(principal, app, current, { prompt: input.prompt, sections }, signal);
    return this.save(principal.accountId, app.id, 'generated', page);
  }

  /**
   * For a deploy, in its transaction: the app's saved page, or null (it snapshots the default). Takes
   * the app's id, not the app, so that the deploy can send this read together with the app's.
   */
  async savedPage(appId: string): Promise<LandingPage | null> {
    return (await this.pages.find(appId))?.page ?? null;
  }

  private save(accountId: string, appId: string, source: LandingPageSource, page: LandingPage): Promise<LandingPageResponseDto> {
    return this.db.run(async () => {
      await this.apps.touch(accountId, appId, 'landingPage');
      const row = await this.pages.save({ appId, accountId, source, page: normalised(page) });
      return { appId, source, page: row.page, updatedAt: row.updatedAt.toISOString() };
    });
  }
}

function view(app: App, row: LandingPageRow | null): LandingPageResponseDto {
  if (!row) return { appId: app.id, source: 'default', page: defaultLandingPage(app), updatedAt: app.updatedAt.toISOString() };
  return { appId: app.id, source: row.source, page: row.page, updatedAt: row.updatedAt.toISOString() };
}

/** Only the document's own fields, in their order (the DTO instance may carry class metadata). */
function normalised(page: LandingPage): LandingPage {
  return {
    schemaVersion: 1,
    hero: { headline: page.hero.headline, subheadline: page.hero.subheadline, ctaLabel: page.hero.ctaLabel },
    features: page.features.map((f) => ({ title: f.title, body: f.body })),
    faq: page.faq.map((f) => ({ question: f.question, answer: f.answer })),
    cta: { headline: page.cta.headline },
    signup: {
      enabled: page.signup.enabled,
      buttonLabel: page.signup.buttonLabel,
      consentText: page.signup.consentText,
      successMessage: page.signup.successMessage,
    },
    theme: { accent: page.theme.accent.toUpperCase() },
  };
}
