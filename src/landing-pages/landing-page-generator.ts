import { Injectable } from '@nestjs/common';
import { AiService } from '../ai/ai.service.js';
import type { Principal } from '../common/request-context/principal.js';
import { cut, LandingPage, LandingPageSection, LIMITS } from './landing-page.js';

/** How many features and questions a generated page gets. */
const FEATURES = 3;
const QUESTIONS = 3;
/** Generations in flight at once (an in-process model takes them in turns anyway). */
const PARALLEL = 4;

interface AppText {
  name: string;
  description: string | null;
}

interface Field {
  /** What to ask for, in one short sentence. */
  ask: string;
  maxTokens: number;
  limit: readonly [number, number];
  /** The app's own text, when the model gives nothing usable. */
  fallback: string;
  /** One line (headlines, labels) or a paragraph. */
  oneLine: boolean;
}

/**
 * Writes a landing page with whatever model the server runs, even a tiny local one: each field is
 * its own short generation (no JSON to parse, nothing a small model can break), then cleaned —
 * markup and markdown stripped, cut to the field's limit at a word — and a field that comes out
 * empty falls back to the app's own text. Every call is an ordinary metered generation
 * (AiService: usage rows, PII masking, deadline); prompts and outputs are not logged.
 */
@Injectable()
export class LandingPageGenerator {
  constructor(private readonly ai: AiService) {}

  async generate(
    principal: Principal,
    app: AppText,
    current: LandingPage,
    options: { prompt?: string; sections: LandingPageSection[] },
    signal: AbortSignal,
  ): Promise<LandingPage> {
    const context = `the app "${app.name}"${app.description ? ` (${app.description})` : ''}${options.prompt ? `. Stress this: ${options.prompt}` : ''}`;
    const page: LandingPage = structuredClone(current);
    const want = new Set(options.sections);
    const fields: Field[] = [];
    const jobs: Array<() => Promise<void>> = [];
    const fill = (field: Field, set: (text: string) => void) => {
      fields.push(field);
      jobs.push(async () => set(await this.field(principal, context, field, signal)));
    };

    if (want.has('hero')) {
      fill(line('a headline for the landing page of', 32, LIMITS.hero.headline, app.name), (t) => (page.hero.headline = t));
      fill(
        paragraph('a one-sentence subheadline for the landing page of', 80, LIMITS.hero.subheadline, app.description ?? ''),
        (t) => (page.hero.subheadline = t),
      );
      fill(line('a call-to-action button label (two to four words) for', 12, LIMITS.hero.ctaLabel, current.hero.ctaLabel), (t) => (page.hero.ctaLabel = t));
    }
    if (want.has('features')) {
      page.features = Array.from({ length: FEATURES }, () => ({ title: '', body: '' }));
      page.features.forEach((feature, i) => {
        fill(line(`the title of feature ${i + 1} of`, 24, LIMITS.feature.title, app.name), (t) => (feature.title = t));
        fill(paragraph(`one or two sentences on feature ${i + 1} of`, 100, LIMITS.feature.body, app.description ?? app.name), (t) => (feature.body = t));
      });
    }
    if (want.has('faq')) {
      page.faq = Array.from({ length: QUESTIONS }, () => ({ question: '', answer: '' }));
      page.faq.forEach((item, i) => {
        fill(line(`frequently asked question number ${i + 1} about`, 40, LIMITS.faq.question, `What is ${app.name}?`), (t) => (item.question = t));
        fill(
          paragraph(`a short answer to question number ${i + 1} people ask about`, 150, LIMITS.faq.answer, app.description ?? app.name),
          (t) => (item.answer = t),
        );
      });
    }
    if (want.has('cta')) {
      fill(
        line('a closing call to action inviting people to sign up for', 32, LIMITS.cta.headline, `Be the first to try ${app.name}`),
        (t) => (page.cta.headline = t),
      );
    }

    // 402 before the first field when the quota has no room for them all, rather than a page half paid for.
    await this.ai.assertRoomFor(
      principal,
      fields.map((field) => ({ prompt: promptOf(field, context), maxTokens: field.maxTokens })),
    );
    await inParallel(jobs, PARALLEL);
    return page;
  }

  private async field(principal: Principal, context: string, field: Field, signal: AbortSignal): Promise<string> {
    const prompt = promptOf(field, context);
    const result = await this.ai.generate(principal, { prompt, maxTokens: field.maxTokens, temperature: 0.7 }, signal);
    const cleaned = cleanGeneratedText(result.text, field.limit[1], field.oneLine);
    return cleaned.length >= Math.max(1, field.limit[0]) ? cleaned : cut(field.fallback, field.limit[1]);
  }
}

function promptOf(field: Field, context: string): string {
  return `Write ${field.ask} ${context}. Plain text only, no quotes, no markdown. Answer with the text alone.\n`;
}

function line(ask: string, maxTokens: number, limit: readonly [number, number], fallback: string): Field {
  return { ask, maxTokens, limit, fallback, oneLine: true };
}

function paragraph(ask: string, maxTokens: number, limit: readonly [number, number], fallback: string): Field {
  return { ask, maxTokens, limit, fallback, oneLine: false };
}

/**
 * Model output as field text: tags and markdown markup removed, one line where a line is wanted,
 * whitespace collapsed, wrapping quotes dropped, cut to `max` characters at a word.
 */
export function cleanGeneratedText(raw: string, max: number, oneLine: boolean): string {
  let text = raw
    .replace(/<[^>]*>/g, ' ') // HTML tags
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1') // markdown links: keep the label
    .replace(/[*_`#>~|]+/g, ' ') // emphasis, code, headings, quotes, tables
    .replace(/^\s*[-+]\s+/gm, ''); // list bullets
  if (oneLine) text = text.trim().split(/\r?\n/)[0] ?? '';
  text = text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^["'“”‘’]+|["'“”‘’]+$/g, '')
    .trim();
  return cut(text, max);
}

/** Runs the jobs `width` at a time; after a failure no new job starts, and the first error is thrown. */
async function inParallel(jobs: Array<() => Promise<void>>, width: number): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (next < jobs.length && !failed) {
      try {
        await jobs[next++]();
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, jobs.length) }, worker));
}
