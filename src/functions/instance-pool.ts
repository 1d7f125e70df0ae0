import { Logger } from '@nestjs/common';
import { type LookupAddress } from 'node:dns';
import { mkdirSync, rmSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { CodeFolderError, CodeFolders, type CodeSource } from './code-folder.js';
import { denoExecutable } from './deno-binary.js';
import { type EgressRules } from './egress-gateway.js';
import { FunctionInstance, FunctionLoadError, type Exchange } from './function-instance.js';
import { functionPage } from './function-pages.js';
import type { FunctionCheck, FunctionDeployment, FunctionLogLevel, FunctionLogSink, FunctionRequest, FunctionResponse } from './functions.types.js';
import { chooseSandbox, type Sandbox } from './sandbox.js';
import type { SandboxKind } from './instance-command.js';

export interface InstancePoolOptions {
  sandbox?: SandboxKind;
  timeoutMs: number;
  memoryMb: number;
  idleMs: number;
  maxInstances: number;
  maxBodyBytes: number;
  /**
   * PLATFORM_URL: its origin is the one loopback or private destination an instance may reach. A function when it is
   * known only once the server listens (PORT=0 without PUBLIC_URL: the tests').
   */
  platformUrl: string | (() => string);
  logs: FunctionLogSink;
  /** Where code folders and instance folders go (default: a folder of this process's under the system's temporary folder). */
  root?: string;
  /** Egress overrides for tests: the resolver (a local DNS server) and the dialer (to count connections). */
  resolve?: (hostname: string) => Promise<LookupAddress[]>;
  dial?: (address: string, port: number) => Socket;
  /** Addresses refused besides this machine's interfaces'. */
  ownAddresses?: readonly string[];
}

/** Crashes within this window… */
const CRASH_WINDOW_MS = 60_000;
/** …that make a crash loop, and how long a deployment in one answers 503. */
const CRASH_LIMIT = 5;
const CRASH_PAUSE_S = 60;
/** How long a timed-out instance has to show its event loop still turns. */
const PING_MS = 1000;
/** A module's load time at least (a cold start on a busy machine). */
const MIN_START_MS = 10_000;
/** The longest a unix socket path may be (Linux: 108 bytes with its NUL). */
const MAX_SOCKET_PATH = 100;

const RUNNER = fileURLToPath(new URL('./runner/instance-runner.js', import.meta.url));

interface Slot {
  instance?: FunctionInstance;
  starting: Promise<FunctionInstance>;
}

/** What a request's log line says. */
interface Outcome {
  status: number;
}

/**
 * The function instances of this API process: `dispatch` starts a deployment's instance on its first request and
 * streams each request through it; idle ones stop after `idleMs`; at most `maxInstances` run (the least recently
 * used stops first); a crashed one starts again on the next request, unless it crashed 5 times within a minute (503
 * with Retry-After for a minute). `validate` is the deploy's load check. `shutdown` lets requests in flight finish.
 */
export class InstancePool {
  readonly sandbox: Sandbox;
  private readonly logger = new Logger('Functions');
  private readonly deno: string;
  private readonly root: string;
  private readonly folders: CodeFolders;
  private readonly egress: EgressRules;
  /** Running and starting instances by deployment id, least recently used first (a Map keeps insertion order). */
  private readonly slots = new Map<string, Slot>();
  private readonly crashes = new Map<string, number[]>();
  private readonly stopping = new Set<Promise<unknown>>();
  private sequence = 0;
  private closing = false;

  constructor(private readonly options: InstancePoolOptions) {
    this.deno = denoExecutable();
    this.sandbox = chooseSandbox(options.sandbox, this.deno);
    // Said at start either way: which layers an instance runs under.
    if (this.sandbox.warning) this.logger.warn(this.sandbox.warning);
    else this.logger.log('Function instances run in a bubblewrap sandbox, under Deno’s permission flags');
    this.root = options.root ?? join(tmpdir(), `platform-functions-${process.pid}`);
    if (join(this.root, 'run', '999999', 'run', 'http.sock').length > MAX_SOCKET_PATH) {
      throw new Error(`the functions folder ${this.root} is too long a path for the instances' sockets: set TMPDIR to a shorter one`);
    }
    rmSync(this.root, { recursive: true, force: true });
    mkdirSync(join(this.root, 'run'), { recursive: true, mode: 0o700 });
    this.folders = new CodeFolders(this.root);
    const own = new Set(options.ownAddresses ?? []);
    for (const addresses of Object.values(networkInterfaces())) for (const a of addresses ?? []) own.add(a.address);
    const platformUrl = options.platformUrl;
    this.egress = {
      get allowedOrigins() {
        return [new URL(typeof platformUrl === 'function' ? platformUrl() : platformUrl).origin];
      },
      ownAddresses: own,
      resolve: options.resolve,
      dial: options.dial,
      timeoutMs: options.timeoutMs,
    };
  }

  /** The deployments with an instance running (or starting), least recently used first. */
  get running(): string[] {
    return [...this.slots.keys()];
  }

  /** The process of a deployment's instance (tests look at it), when one runs. */
  pidOf(deploymentId: string): number | undefined {
    return this.slots.get(deploymentId)?.instance?.pid;
  }

  /** A request to the deployment's function, answered by it (streamed) or by a platform page. */
  async dispatch(deployment: FunctionDeployment, request: FunctionRequest): Promise<FunctionResponse> {
    const started = Date.now();
    const deadline = started + this.options.timeoutMs;
    const answer = await this.answer(deployment, request, deadline);
    const path = new URL(request.url).pathname;
    const line = (outcome: Outcome) => this.log(deployment.id, 'request', `${request.method} ${path} ${outcome.status} ${Date.now() - started}ms`);
    if ('finished' in answer) {
      void answer.finished.then(() => line(answer.response));
      return answer.response;
    }
    line(answer);
    return answer;
  }

  private async answer(
    deployment: FunctionDeployment,
    request: FunctionRequest,
    deadline: number,
  ): Promise<FunctionResponse | Extract<Exchange, { kind: 'response' }>> {
    if (this.closing) return functionPage(503, { 'retry-after': '5' });
    const declared = Number(headerOf(request.rawHeaders, 'content-length') ?? 0);
    if (declared > this.options.maxBodyBytes) return functionPage(413);
    if (this.inCrashLoop(deployment.id)) return functionPage(503, { 'retry-after': String(CRASH_PAUSE_S) });

    let instance: FunctionInstance;
    try {
      instance = await this.instanceFor(deployment, deadline);
    } catch (err) {
      return functionPage(err instanceof StartTimeout ? 504 : 502);
    }
    const exchange = await instance.exchange(request, deadline, this.options.maxBodyBytes, () => void this.checkAfterTimeout(deployment.id, instance));
    switch (exchange.kind) {
      case 'response':
        return exchange;
      case 'timeout':
        this.log(deployment.id, 'system', `the request took longer than ${this.options.timeoutMs} ms: 504`);
        return functionPage(504);
      case 'too_large':
        return functionPage(413);
      case 'failed':
        return functionPage(502);
    }
  }

  /** The deployment's instance, started when it has none (concurrent first requests share the start). */
  private async instanceFor(deployment: FunctionDeployment, deadline: number): Promise<FunctionInstance> {
    let slot = this.slots.get(deployment.id);
    // One that failed is left to end: a fresh one takes the request.
    if (slot?.instance && !slot.instance.ready) {
      this.slots.delete(deployment.id);
      slot = undefined;
    }
    if (slot) {
      // Most recently used now: to the end of the order.
      this.slots.delete(deployment.id);
      this.slots.set(deployment.id, slot);
    } else {
      while (this.slots.size >= this.options.maxInstances) this.evictLeastRecentlyUsed();
      const starting = this.launch(deployment);
      slot = { starting };
      const own = slot;
      this.slots.set(deployment.id, own);
      starting.then(
        (instance) => (own.instance = instance),
        () => {
          if (this.slots.get(deployment.id) === own) this.slots.delete(deployment.id);
        },
      );
    }
    const left = deadline - Date.now();
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([slot.starting, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new StartTimeout()), left)))]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async launch(deployment: FunctionDeployment): Promise<FunctionInstance> {
    let codeDir: string;
    try {
      codeDir = await this.folders.folder(deployment.id, deployment.code);
    } catch (err) {
      this.log(deployment.id, 'system', `the code could not be prepared: ${(err as Error).message}`);
      throw err;
    }
    const startedAt = Date.now();
    let instance: FunctionInstance | undefined;
    try {
      instance = await FunctionInstance.start({
        ...this.instanceOptions(deployment.id, deployment.entry, codeDir, deployment.env),
        idleMs: this.options.idleMs,
        onIdle: () => {
          if (instance && this.slots.get(deployment.id)?.instance === instance) this.stop(deployment.id, 'idle');
        },
        onCrash: () => this.recordCrash(deployment.id),
      });
    } catch (err) {
      this.recordCrash(deployment.id);
      this.log(deployment.id, 'system', `the instance did not start: ${(err as Error).message}`);
      throw err;
    }
    const started = instance;
    this.log(deployment.id, 'system', `instance started in ${Date.now() - startedAt} ms`);
    void started.exited.then((exit) => {
      const slot = this.slots.get(deployment.id);
      if (slot?.instance === started) this.slots.delete(deployment.id);
      if (!exit.stopped && !exit.reason)
        this.log(
          deployment.id,
          'system',
          `the instance ended (${exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`}); the next request starts it again`,
        );
    });
    return started;
  }

  private instanceOptions(deploymentId: string, entry: string, codeDir: string, env: Readonly<Record<string, string>>) {
    return {
      deploymentId,
      entry,
      codeDir,
      runDir: join(this.root, 'run', String(++this.sequence)),
      sandbox: this.sandbox,
      deno: this.deno,
      runner: RUNNER,
      memoryMb: this.options.memoryMb,
      timeoutMs: this.options.timeoutMs,
      startTimeoutMs: Math.max(this.options.timeoutMs, MIN_START_MS),
      env,
      egress: this.egress,
      log: (level: FunctionLogLevel, message: string) => this.log(deploymentId, level, message),
    };
  }

  private evictLeastRecentlyUsed(): void {
    const [oldest] = this.slots.keys();
    this.stop(oldest, 'stopped to make room for another deployment (FUNCTIONS_MAX_INSTANCES)');
  }

  /** Stops a deployment's instance in the background, letting its requests in flight finish within the timeout. */
  private stop(deploymentId: string, why: string): void {
    const slot = this.slots.get(deploymentId);
    if (!slot) return;
    this.slots.delete(deploymentId);
    this.log(deploymentId, 'system', `instance ${why === 'idle' ? `stopped after ${this.options.idleMs} ms without requests` : why}`);
    const stopping = slot.starting.then(
      (instance) => instance.stop(this.options.timeoutMs),
      () => undefined,
    );
    this.stopping.add(stopping);
    void stopping.finally(() => this.stopping.delete(stopping));
  }

  /** A request timed out: an instance whose event loop no longer turns (a busy loop) is ended, its other requests 502. */
  private async checkAfterTimeout(deploymentId: string, instance: FunctionInstance): Promise<void> {
    if (!instance.ready) return;
    if (await instance.control('ping', PING_MS)) return;
    instance.end(`ended: it did not answer for ${PING_MS} ms after a request timed out (a busy loop?)`);
  }

  private recordCrash(deploymentId: string): void {
    const now = Date.now();
    const recent = (this.crashes.get(deploymentId) ?? []).filter((at) => now - at < CRASH_WINDOW_MS);
    recent.push(now);
    this.crashes.set(deploymentId, recent);
    if (recent.length === CRASH_LIMIT) this.log(deploymentId, 'system', `${CRASH_LIMIT} crashes within a minute: requests answer 503 for ${CRASH_PAUSE_S} s`);
  }

  /** Five crashes within a minute: 503 until a minute after the fifth. */
  private inCrashLoop(deploymentId: string): boolean {
    const recent = this.crashes.get(deploymentId) ?? [];
    if (recent.length < CRASH_LIMIT) return false;
    if (Date.now() - recent[recent.length - 1] < CRASH_PAUSE_S * 1000) return true;
    this.crashes.delete(deploymentId);
    return false;
  }

  /**
   * The deploy's load check: the entry loads in a throwaway instance (a missing entry, a file that is no module, a
   * syntax error, an exception at load, no default `fetch`: the loader's message, its first KiB).
   */
  async validate(check: { entry: string; code: CodeSource; env?: Readonly<Record<string, string>> }): Promise<FunctionCheck> {
    if (!check.code.files.some((file) => file.path === check.entry)) return invalid(`the entry ${check.entry} is not one of the deployment's files`);
    let folder: string;
    try {
      folder = await this.folders.scratch(check.code);
    } catch (err) {
      if (err instanceof CodeFolderError) return invalid(err.message);
      throw err;
    }
    const lines: string[] = [];
    try {
      const instance = await FunctionInstance.start({
        ...this.instanceOptions('check', check.entry, folder, check.env ?? {}),
        startTimeoutMs: Math.max(this.options.timeoutMs, MIN_START_MS),
        log: (level, message) => void (level === 'error' && lines.push(message)),
      });
      await instance.stop(0);
      return { ok: true };
    } catch (err) {
      if (err instanceof FunctionLoadError) return invalid(lines.length && !err.message ? lines.join('\n') : err.message);
      throw err;
    } finally {
      await this.folders.remove(folder);
    }
  }

  /**
   * Stops taking requests (503), lets those in flight and their waitUntil work finish within `deadlineMs`, then
   * ends every instance and removes this process's folders.
   */
  async shutdown(deadlineMs: number): Promise<void> {
    this.closing = true;
    const instances = [...this.slots.values()];
    this.slots.clear();
    await Promise.all([
      ...instances.map((slot) =>
        slot.starting.then(
          (instance) => instance.stop(deadlineMs),
          () => undefined,
        ),
      ),
      ...this.stopping,
    ]);
    rmSync(this.root, { recursive: true, force: true });
  }

  private log(deploymentId: string, level: FunctionLogLevel, message: string): void {
    try {
      this.options.logs.onLog(deploymentId, { at: new Date(), level, message });
    } catch (err) {
      this.logger.error(`a function log sink failed: ${(err as Error).message}`);
    }
  }
}

class StartTimeout extends Error {}

function headerOf(raw: readonly string[], name: string): string | undefined {
  for (let i = 0; i + 1 < raw.length; i += 2) if (raw[i].toLowerCase() === name) return raw[i + 1];
  return undefined;
}

/** A failed check's message: its first KiB (UTF-8). */
function invalid(message: string): FunctionCheck {
  let text = message.slice(0, 1024);
  while (Buffer.byteLength(text) > 1024) text = text.slice(0, -1);
  return { ok: false, message: text };
}
