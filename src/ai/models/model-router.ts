import { Injectable, Logger } from '@nestjs/common';
import type { Counter } from 'prom-client';
import { MetricsService } from '../../metrics/metrics.service.js';
import { AiError, AiErrorCode } from '../ai.errors.js';
import type { AiModel, ModelTarget } from './ai-models.js';

/** Base of the pause before a single target's one retry (jittered ±50 %). */
const RETRY_DELAY_MS = 500;

export interface Attempt {
  target: ModelTarget;
  /** Aborts with the call (deadline, client gone) and when the target's `timeoutMs` passes before `started()`. */
  signal: AbortSignal;
  /** The first output is here (a streamed answer's first token): from now on this target answers, whatever happens. */
  started(): void;
}

export interface RouteOptions {
  /** The generation's id, for the log lines. */
  callId: string;
  /** One more try of a model's only target after a 5xx or a broken connection (never for a stream: `started` makes it moot). */
  retrySingleTarget: boolean;
  /** Told of every attempt as it begins (the call records the last one's provider when all fail). */
  onAttempt?(target: ModelTarget, fallbacks: number): void;
}

/**
 * Sends a request to a model's targets in order: on a 429, a 5xx, a timeout (the target's
 * `timeoutMs`), a refused or broken connection or a local model that cannot load — before the
 * first output — the next target is tried, each fallback logged (never with the prompt) and counted
 * in `ai_fallbacks_total`. Once an attempt said `started()` there is no going back: a stream that
 * breaks afterwards fails as it is. Any other failure (the upstream refusing our key, a 4xx, an
 * answer it cannot read) is the answer: another target would not be better placed.
 */
@Injectable()
export class ModelRouter {
  private readonly logger = new Logger('AiFallbacks');
  private readonly fallbacks: Counter<'model' | 'from' | 'to' | 'reason'>;

  constructor(metrics: MetricsService) {
    this.fallbacks = metrics.counter({
      name: 'ai_fallbacks_total',
      help: 'AI requests sent on to the next target of their model, by model, failed target, next target and reason',
      labelNames: ['model', 'from', 'to', 'reason'] as const,
    });
  }

  async run<T>(model: AiModel, signal: AbortSignal, options: RouteOptions, attempt: (a: Attempt) => Promise<T>): Promise<{ result: T; target: ModelTarget }> {
    const targets = model.targets;
    let retried = false;
    for (let i = 0; i < targets.length; i++) {
      const target = targets[i];
      options.onAttempt?.(target, i);
      // A target with its own wait gets a signal that also ends with it (AbortSignal.any only then: ~30 µs a call on Node 20).
      const wait = target.timeoutMs ? new AbortController() : undefined;
      const timer = wait
        ? setTimeout(
            () => wait.abort(new AiError(AiErrorCode.Timeout, `The AI provider did not start answering within ${target.timeoutMs} ms`)),
            target.timeoutMs,
          )
        : undefined;
      try {
        const result = await attempt({ target, signal: wait ? AbortSignal.any([signal, wait.signal]) : signal, started: () => clearTimeout(timer) });
        return { result, target };
      } catch (err) {
        // The call's own end (its deadline, the client leaving) ends every target.
        if (signal.aborted) throw err;
        const error = wait?.signal.aborted ? (wait.signal.reason as AiError) : err;
        const next = targets[i + 1];
        if (!next) {
          if (options.retrySingleTarget && targets.length === 1 && !retried && error instanceof AiError && error.retryable) {
            retried = true;
            await sleep(RETRY_DELAY_MS * (0.5 + Math.random()), signal);
            i--;
            continue;
          }
          throw error;
        }
        const reason = fallbackReason(error);
        if (!reason) throw error;
        this.fallbacks.inc({ model: model.id, from: target.label, to: next.label, reason });
        this.logger.warn(
          {
            generationId: options.callId,
            model: model.id,
            from: target.label,
            to: next.label,
            reason,
            upstreamStatus: (error as AiError).details?.upstreamStatus,
          },
          'AI target failed before any output; trying the next',
        );
      } finally {
        clearTimeout(timer);
      }
    }
    throw new Error('a model has at least one target'); // unreachable: the catalog checks it
  }
}

/** Why a failed attempt may go to the next target (the `reason` label), or null when it may not. */
export function fallbackReason(error: unknown): string | null {
  if (!(error instanceof AiError)) return null;
  switch (error.reason) {
    case AiErrorCode.UpstreamRateLimited:
    case AiErrorCode.UpstreamUnreachable:
    case AiErrorCode.Timeout:
    case AiErrorCode.ModelUnavailable:
      return error.reason;
    case AiErrorCode.UpstreamFailed:
      return (error.details.upstreamStatus ?? 0) >= 500 ? error.reason : null;
    default:
      return null;
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
