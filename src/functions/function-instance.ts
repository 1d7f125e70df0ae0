import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { Agent, request as httpRequest, type IncomingMessage } from 'node:http';
import { join, posix } from 'node:path';
import { PassThrough, Transform } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { EgressGateway, type EgressRules } from './egress-gateway.js';
import { flat, toFunctionHeaders, toVisitorHeaders } from './function-headers.js';
import type { FunctionLogLevel, FunctionRequest, FunctionResponse } from './functions.types.js';
import { instanceCommand, SOCKET_NAME } from './instance-command.js';
import { LineSplitter } from './line-splitter.js';
import type { Sandbox } from './sandbox.js';

export interface InstanceOptions {
  deploymentId: string;
  /** The entry's path among the deployment's files. */
  entry: string;
  codeDir: string;
  /** This instance's own folder (made here, removed when it ends). */
  runDir: string;
  sandbox: Sandbox;
  deno: string;
  runner: string;
  memoryMb: number;
  timeoutMs: number;
  /** How long the module has to load. */
  startTimeoutMs: number;
  env: Readonly<Record<string, string>>;
  egress: EgressRules;
  log: (level: FunctionLogLevel, message: string) => void;
  /** Called when the instance has had no request in flight for `idleMs`. */
  idleMs?: number;
  onIdle?: () => void;
  /** Called once when the instance fails (ends by itself, or stops answering its socket): the pool counts crashes. */
  onCrash?: () => void;
}

/** The module did not load: the loader's message (the deploy check's `function_invalid`). */
export class FunctionLoadError extends Error {
  override name = 'FunctionLoadError';
}

/** How an instance ended. */
export interface InstanceExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Why the platform ended it (stopped, memory, stuck), or undefined when it ended by itself (a crash). */
  reason?: string;
  /** Whether the platform stopped it as it meant to (idle, LRU, shutdown): not a crash. */
  stopped: boolean;
}

/** What became of one request. */
export type Exchange =
  { kind: 'response'; response: FunctionResponse; finished: Promise<void> } | { kind: 'timeout' } | { kind: 'too_large' } | { kind: 'failed'; why: string };

class TooLarge extends Error {}

/** Resident memory of a process and its descendants, in bytes (Linux /proc; 0 elsewhere). */
function treeRss(pid: number): number {
  try {
    const pages = Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]);
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    return pages * 4096 + children.reduce((sum, child) => sum + treeRss(child), 0);
  } catch {
    return 0;
  }
}

/**
 * One running Deno process serving one deployment: started by `start` (which resolves once the module loaded, or
 * rejects with the loader's message), reached over the runner's Unix socket, with its own egress gateway. Its
 * resident memory is watched besides V8's heap limit (buffers live outside the heap).
 */
export class FunctionInstance {
  readonly nonce = randomBytes(16).toString('hex');
  readonly exited: Promise<InstanceExit>;
  inFlight = 0;
  lastUsed = Date.now();
  private state: 'starting' | 'ready' | 'stopping' | 'exited' = 'starting';
  private crashed = false;
  private endReason?: string;
  private readonly agent = new Agent({ keepAlive: true });
  private idleTimer?: NodeJS.Timeout;
  private memoryTimer?: NodeJS.Timeout;
  private child!: ChildProcessWithoutNullStreams;
  private gateway!: EgressGateway;
  private socketPath!: string;
  private resolveExit!: (exit: InstanceExit) => void;

  private constructor(private readonly options: InstanceOptions) {
    this.exited = new Promise((resolve) => (this.resolveExit = resolve));
  }

  static async start(options: InstanceOptions): Promise<FunctionInstance> {
    const instance = new FunctionInstance(options);
    await instance.launch();
    return instance;
  }

  /** Whether it takes requests: loaded, not stopping, not failed. */
  get ready(): boolean {
    return this.state === 'ready' && !this.crashed;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  private async launch(): Promise<void> {
    const { runDir, sandbox, options } = { runDir: this.options.runDir, sandbox: this.options.sandbox, options: this.options };
    await mkdir(join(runDir, 'run'), { recursive: true, mode: 0o700 });
    const egressSocket = join(runDir, 'egress.sock');
    this.gateway = await EgressGateway.listen(options.egress, sandbox.kind === 'bwrap' ? { kind: 'unix', path: egressSocket } : { kind: 'tcp' }, (message) =>
      options.log('system', message),
    );
    this.socketPath = join(runDir, 'run', SOCKET_NAME);
    const command = instanceCommand({
      sandbox: sandbox.kind,
      deno: options.deno,
      runner: options.runner,
      codeDir: options.codeDir,
      runDir: join(runDir, 'run'),
      egress: sandbox.kind === 'bwrap' ? { kind: 'unix', path: egressSocket } : { kind: 'tcp', port: this.gateway.port },
      memoryMb: options.memoryMb,
      libraries: sandbox.libraries,
      tools: sandbox.tools,
    });
    this.child = spawn(command.file, command.args, { env: command.env, stdio: ['pipe', 'pipe', 'pipe'] });
    const loaded = new Promise<void>((resolve, reject) => {
      const stdout = new LineSplitter((line) => this.onLine(line, resolve, reject));
      const stderr = new LineSplitter((line) => options.log('error', line));
      this.child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
      this.child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
      this.child.stdout.on('end', () => stdout.end());
      this.child.stderr.on('end', () => stderr.end());
      this.child.on('error', (err) => reject(new Error(`the instance did not start: ${err.message}`)));
      void this.exited.then((exit) => reject(new FunctionLoadError(this.endReason ?? `the instance ended while loading (${describeExit(exit)})`)));
    });
    this.child.on('exit', (code, signal) => void this.onExit(code, signal));
    this.child.stdin.on('error', () => undefined); // it is gone: its exit says why
    this.child.stdin.write(
      `${JSON.stringify({
        nonce: this.nonce,
        entry: pathToFileURL(posix.join(command.inside.entryRoot, options.entry)).href,
        socket: command.inside.socket,
        egress: command.inside.egress,
        env: options.env,
        timeoutMs: options.timeoutMs,
        codePrefixes: command.inside.codePrefixes,
      })}\n`,
    );
    const timer = setTimeout(() => this.end(`the module did not load within ${options.startTimeoutMs} ms`), options.startTimeoutMs);
    try {
      await loaded;
    } finally {
      clearTimeout(timer);
    }
    this.state = 'ready';
    this.watchMemory();
  }

  private onLine(line: string, loaded: () => void, failed: (err: Error) => void): void {
    let message: { nonce?: unknown; t?: unknown; level?: unknown; message?: unknown } | undefined;
    if (line.startsWith('{')) {
      try {
        message = JSON.parse(line) as typeof message;
      } catch {
        message = undefined;
      }
    }
    // Only the runner knows the nonce: a line without it is the code's own output, never a word of the runner's.
    if (message?.nonce !== this.nonce) return this.options.log('info', line);
    if (message.t === 'ready') loaded();
    else if (message.t === 'load_error') failed(new FunctionLoadError(String(message.message)));
    else if (message.t === 'log') {
      const level = ['debug', 'info', 'warn', 'error'].includes(String(message.level)) ? (message.level as FunctionLogLevel) : 'info';
      this.options.log(level, String(message.message));
    }
  }

  private async onExit(code: number | null, signal: NodeJS.Signals | null): Promise<void> {
    const stopped = this.state === 'stopping' && this.endReason === undefined;
    this.state = 'exited';
    if (!stopped) this.crash();
    clearTimeout(this.idleTimer);
    clearTimeout(this.memoryTimer);
    this.agent.destroy();
    await this.gateway?.close().catch(() => undefined);
    await rm(this.options.runDir, { recursive: true, force: true }).catch(() => undefined);
    this.resolveExit({ code, signal, reason: this.endReason, stopped });
  }

  /**
   * It failed: no request goes to it any more, the pool hears of it at once (before the request that saw it is
   * answered, so crash counting does not race the process's exit), and a process still there is ended.
   */
  private crash(): void {
    if (this.crashed) return;
    this.crashed = true;
    this.options.onCrash?.();
    if (this.state !== 'exited') setTimeout(() => this.child.kill('SIGKILL'), 1000).unref();
  }

  /**
   * Past its memory: V8's heap limit (--max-old-space-size) ends the process itself; this catches what lives outside
   * the heap (ArrayBuffers), at twice the heap limit plus the runtime's own share.
   */
  private watchMemory(): void {
    const limit = (this.options.memoryMb * 2 + 128) * 1024 * 1024;
    const check = () => {
      if (this.state === 'exited' || !this.child.pid) return;
      const rss = treeRss(this.child.pid);
      if (rss > limit) this.end(`ended: its memory (${Math.round(rss / 1048576)} MiB) went past ${Math.round(limit / 1048576)} MiB`);
      else this.memoryTimer = setTimeout(check, 250).unref();
    };
    this.memoryTimer = setTimeout(check, 250).unref();
  }

  /** Ends the process now; `reason` makes it count as a failure of the deployment's. */
  end(reason?: string): void {
    if (this.state === 'exited') return;
    if (reason && !this.endReason) {
      this.endReason = reason;
      this.options.log('system', reason);
    }
    this.child.kill('SIGKILL');
  }

  /**
   * Stops taking requests and lets those in flight (and their waitUntil work) finish within `deadlineMs`, then ends
   * the process.
   */
  async stop(deadlineMs: number): Promise<InstanceExit> {
    if (this.state === 'exited') return this.exited;
    const wasReady = this.state === 'ready';
    this.state = 'stopping';
    clearTimeout(this.idleTimer);
    const deadline = setTimeout(() => this.child.kill('SIGKILL'), deadlineMs);
    if (wasReady) {
      const drained = await this.control('drain', Math.min(deadlineMs, 5000));
      if (!drained) this.child.kill('SIGKILL');
    } else this.child.kill('SIGKILL');
    const exit = await this.exited;
    clearTimeout(deadline);
    return exit;
  }

  /** Asks the runner itself (`ping`: is its event loop turning; `drain`: finish and exit); false when it does not answer in time. */
  control(kind: 'ping' | 'drain', timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const req = httpRequest({
        socketPath: this.socketPath,
        agent: false,
        method: 'POST',
        path: '/',
        headers: { 'x-platform-control': kind, 'x-platform-nonce': this.nonce, 'content-length': '0' },
        timeout: timeoutMs,
      });
      req.on('timeout', () => req.destroy());
      req.on('error', () => resolve(false));
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode === 200);
      });
      req.end();
    });
  }

  /**
   * Sends one request and streams the answer back: `timeout` when `deadline` passes before the answer's head (and
   * the answer's body is cut if it passes later), `too_large` past `maxBodyBytes`, `failed` when the runner
   * answered its own error (the code threw or answered no Response: it logged why) or the instance went away.
   */
  exchange(request: FunctionRequest, deadline: number, maxBodyBytes: number, onLate: () => void): Promise<Exchange> {
    this.inFlight++;
    this.lastUsed = Date.now();
    clearTimeout(this.idleTimer);
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      this.inFlight--;
      this.lastUsed = Date.now();
      if (this.inFlight === 0 && this.state === 'ready' && this.options.onIdle) {
        this.idleTimer = setTimeout(() => this.options.onIdle?.(), this.options.idleMs).unref();
      }
    };
    let settle!: (exchange: Exchange) => void;
    const settled = new Promise<Exchange>((resolve) => (settle = resolve));
    let answered = false;
    let body: PassThrough | undefined;
    // Ended by us (timeout, too large, the visitor left): its "socket hang up" says nothing about the instance.
    let abandoned = false;
    const abandon = () => {
      abandoned = true;
      upstream.destroy();
    };
    const url = new URL(request.url);
    const upstream = httpRequest({
      socketPath: this.socketPath,
      agent: this.agent,
      method: request.method,
      path: `${url.pathname}${url.search}`,
      headers: flat([...toFunctionHeaders(request.rawHeaders, request.clientIp), ['x-platform-url', request.url]]),
    });
    const timer = setTimeout(
      () => {
        if (!answered) {
          answered = true;
          settle({ kind: 'timeout' });
        } else body?.destroy(new Error('the function did not finish its answer in time'));
        abandon();
        finish();
        onLate();
      },
      Math.max(0, deadline - Date.now()),
    );
    upstream.on('error', (err) => {
      if (abandoned) return finish();
      // The runner's socket failed under a request: the process is dying or broken.
      if (this.state === 'ready') this.crash();
      if (!answered) {
        answered = true;
        settle({ kind: 'failed', why: this.state === 'exited' || this.endReason ? (this.endReason ?? 'the instance ended') : err.message });
      } else body?.destroy(err);
      finish();
    });
    upstream.on('response', (res: IncomingMessage) => {
      if (answered) return void res.destroy();
      answered = true;
      if (res.headers['x-platform-runner-error'] === this.nonce) {
        res.resume();
        finish();
        return settle({ kind: 'failed', why: 'the function threw or answered something else than a Response' });
      }
      const stream = new PassThrough();
      body = stream;
      res.pipe(stream);
      res.on('error', (err) => stream.destroy(err));
      res.on('close', () => {
        if (!res.complete) stream.destroy(new Error('the instance went away during the answer'));
      });
      // The visitor went away, or the answer ended: the function's request ends too.
      const finished = new Promise<void>((resolve) =>
        stream.on('close', () => {
          if (!res.complete) abandon();
          finish();
          resolve();
        }),
      );
      settle({ kind: 'response', response: { status: res.statusCode ?? 502, headers: flat(toVisitorHeaders(res.rawHeaders)), body: stream }, finished });
    });

    if (!request.body) upstream.end();
    else {
      let bytes = 0;
      const source = request.body;
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          bytes += chunk.length;
          callback(bytes > maxBodyBytes ? new TooLarge() : null, chunk);
        },
      });
      counter.on('error', () => {
        source.unpipe(counter);
        source.resume(); // the rest is read and dropped: the visitor still gets its 413
        if (!answered) {
          answered = true;
          settle({ kind: 'too_large' });
        }
        abandon();
        finish();
      });
      source.on('error', abandon);
      source.pipe(counter).pipe(upstream);
    }
    return settled;
  }
}

function describeExit(exit: InstanceExit): string {
  return exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`;
}
