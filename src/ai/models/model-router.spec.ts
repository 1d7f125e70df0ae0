import { Logger } from '@nestjs/common';
import { MetricsService } from '../../metrics/metrics.service.js';
import { AiError, AiErrorCode } from '../ai.errors.js';
import type { AiProvider } from '../providers/ai-provider.js';
import type { AiModel, ModelTarget } from './ai-models.js';
import { fallbackReason, ModelRouter } from './model-router.js';

const target = (name: string, timeoutMs?: number): ModelTarget => ({
  provider: { name } as AiProvider,
  model: `${name}-model`,
  label: `${name}/${name}-model`,
  timeoutMs,
});
const model = (...targets: ModelTarget[]): AiModel => ({ id: 'm', targets, maxTokens: 100, ownedBy: 'x', created: 0 });
const failure = (reason: AiErrorCode, upstreamStatus?: number) => new AiError(reason, 'failed', { upstreamStatus });
const options = { callId: 'gen_1', retrySingleTarget: true };

async function fallbackCount(metrics: MetricsService): Promise<Array<{ labels: object; value: number }>> {
  const metric = await metrics.registry.getSingleMetric('ai_fallbacks_total')!.get();
  return metric.values.map((v) => ({ labels: v.labels, value: v.value }));
}

describe('ModelRouter', () => {
  // The fallback's log line is asserted end to end (test/ai-gateway.e2e-spec.ts).
  beforeAll(() => Logger.overrideLogger(false));
  let metrics: MetricsService;
  let router: ModelRouter;
  beforeEach(() => {
    metrics = new MetricsService();
    router = new ModelRouter(metrics);
  });

  it.each([
    ['a 429', failure(AiErrorCode.UpstreamRateLimited, 429), 'upstream_rate_limited'],
    ['a 503', failure(AiErrorCode.UpstreamFailed, 503), 'upstream_failed'],
    ['a refused connection', failure(AiErrorCode.UpstreamUnreachable), 'upstream_unreachable'],
    ['a model that cannot load', failure(AiErrorCode.ModelUnavailable), 'model_unavailable'],
  ])('falls back on %s, and counts it', async (_label, error, reason) => {
    const asked: string[] = [];
    const { result, target: answered } = await router.run(model(target('a'), target('b')), new AbortController().signal, options, async ({ target: t }) => {
      asked.push(t.label);
      if (t.label === 'a/a-model') throw error;
      return 'ok';
    });
    expect([result, answered.label, asked]).toEqual(['ok', 'b/b-model', ['a/a-model', 'b/b-model']]);
    expect(await fallbackCount(metrics)).toEqual([{ labels: { model: 'm', from: 'a/a-model', to: 'b/b-model', reason }, value: 1 }]);
  });

  it.each([
    ['the upstream refusing our key', failure(AiErrorCode.UpstreamAuth, 401)],
    ['a 400', failure(AiErrorCode.UpstreamFailed, 400)],
    ['an answer it cannot read', failure(AiErrorCode.UpstreamFailed, 200)],
    ['a bug', new TypeError('x is undefined')],
  ])('answers %s as it is, without trying the next target', async (_label, error) => {
    const asked: string[] = [];
    await expect(
      router.run(model(target('a'), target('b')), new AbortController().signal, options, async ({ target: t }) => {
        asked.push(t.label);
        throw error;
      }),
    ).rejects.toBe(error);
    expect(asked).toEqual(['a/a-model']);
    expect(await fallbackCount(metrics)).toEqual([]);
  });

  it("falls back when a target's timeoutMs passes before it started, and not once it started", async () => {
    const asked: string[] = [];
    const { result } = await router.run(model(target('slow', 30), target('b')), new AbortController().signal, options, ({ target: t, signal }) => {
      asked.push(t.label);
      if (t.label === 'b/b-model') return Promise.resolve('b');
      return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
    });
    expect(result).toBe('b');
    expect(asked).toEqual(['slow/slow-model', 'b/b-model']);
    expect((await fallbackCount(metrics))[0].labels).toMatchObject({ reason: 'timeout' });

    // Started: the target's wait no longer applies.
    const { result: late } = await router.run(model(target('slow', 30), target('b')), new AbortController().signal, options, async ({ target: t, started }) => {
      started();
      await new Promise((r) => setTimeout(r, 60));
      return t.label;
    });
    expect(late).toBe('slow/slow-model');
  });

  it('answers the last failure when every target failed, and stops at once when the call itself ends', async () => {
    const last = failure(AiErrorCode.UpstreamFailed, 502);
    await expect(
      router.run(model(target('a'), target('b')), new AbortController().signal, options, async ({ target: t }) => {
        throw t.label === 'a/a-model' ? failure(AiErrorCode.UpstreamRateLimited, 429) : last;
      }),
    ).rejects.toBe(last);

    const call = new AbortController();
    const asked: string[] = [];
    await expect(
      router.run(model(target('a'), target('b')), call.signal, options, async ({ target: t }) => {
        asked.push(t.label);
        call.abort(new Error('deadline'));
        throw failure(AiErrorCode.UpstreamUnreachable);
      }),
    ).rejects.toMatchObject({ reason: AiErrorCode.UpstreamUnreachable });
    expect(asked).toEqual(['a/a-model']);
  });

  it("retries a single target's 5xx or broken connection once (when asked), never its 429 or 4xx", async () => {
    const tries = (error: AiError, retrySingleTarget = true) => {
      let n = 0;
      return router
        .run(model(target('only')), new AbortController().signal, { ...options, retrySingleTarget }, async () => {
          n++;
          throw error;
        })
        .catch(() => n);
    };
    expect(await tries(failure(AiErrorCode.UpstreamFailed, 500))).toBe(2);
    expect(await tries(failure(AiErrorCode.UpstreamUnreachable))).toBe(2);
    expect(await tries(failure(AiErrorCode.UpstreamRateLimited, 429))).toBe(1);
    expect(await tries(failure(AiErrorCode.UpstreamFailed, 400))).toBe(1);
    expect(await tries(failure(AiErrorCode.UpstreamFailed, 500), false)).toBe(1);
  });

  it('names the reasons a failure may fall back for', () => {
    expect(fallbackReason(failure(AiErrorCode.Timeout))).toBe('timeout');
    expect(fallbackReason(failure(AiErrorCode.UpstreamFailed))).toBeNull();
    expect(fallbackReason(new Error('x'))).toBeNull();
  });
});
