import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { denoExecutable } from '../../src/functions/deno-binary.js';
import { instanceCommand } from '../../src/functions/instance-command.js';
import { InstancePool } from '../../src/functions/instance-pool.js';
import { chooseSandbox } from '../../src/functions/sandbox.js';
import { describeUnless } from '../support/skips.js';
import { TestDnsServer } from '../support/dns-server.js';
import { call, countingListener, deploymentOf, LogCollector, recordingDialer, recordingServer, resolverOn, servePool } from '../support/functions.js';

/**
 * The contract's "Isolation" lines, each a test, on real Deno: with bubblewrap around it and with Deno's permission
 * flags alone (FUNCTIONS_SANDBOX=none). Outbound traffic only ever goes to loopback: a refusal is shown by the
 * egress refusing before it connects (its dialer records every connection, and a listener on 127.0.0.1 counts what
 * reaches it), and the one "public" address a name answers is dialled to a local stand-in.
 */
const PROBE = `
const attempt = async (f) => {
  try {
    const value = await f();
    return { ok: true, value: typeof value === 'string' ? value.slice(0, 500) : String(value) };
  } catch (e) {
    return { ok: false, name: e?.name, message: String(e?.message ?? e).slice(0, 500) };
  }
};
export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const t = url.searchParams.get('t') ?? '';
    const checks = {
      '/read': () => Deno.readTextFile(t),
      '/read-own': () => Deno.readTextFile(new URL('./lib/util.js', import.meta.url)),
      '/import': () => import(t).then((m) => JSON.stringify(Object.keys(m))),
      '/write': () => Deno.writeTextFile(t, 'x').then(() => 'written'),
      '/run': () => new Deno.Command('/bin/sh', { args: ['-c', 'id'] }).output().then((o) => new TextDecoder().decode(o.stdout)),
      '/ffi': () => Deno.dlopen(t, {}),
      '/listen-tcp': () => Deno.listen({ hostname: '127.0.0.1', port: 0 }).addr.port,
      '/listen-unix': () => Deno.listen({ transport: 'unix', path: t }).addr.path,
      '/env-get': () => Deno.env.get(t),
      '/env-all': () => JSON.stringify(Deno.env.toObject()),
      '/env-arg': () => JSON.stringify(env),
      '/fetch': () => fetch(t).then(async (r) => r.status + ' ' + (await r.text())),
      '/connect': () => Deno.connect({ hostname: '127.0.0.1', port: Number(t) }).then(() => 'connected'),
    };
    return Response.json(await attempt(checks[url.pathname]));
  },
};
`;

const PUBLIC_ADDRESS = '93.184.216.34';
/** Stands for a public address of this node (HOST=0.0.0.0 on a machine with a public interface). */
const OWN_PUBLIC_ADDRESS = '93.184.216.35';

/**
 * Why the bubblewrap suite does not run here, or false when it does: FUNCTIONS_SANDBOX=none asks for the permission
 * flags alone (a machine without unprivileged namespaces), and a machine where bubblewrap cannot run Deno says so.
 */
function bwrapUnavailable(): string | false {
  if (process.env.FUNCTIONS_SANDBOX === 'none') return 'FUNCTIONS_SANDBOX=none: the permission flags are tested alone';
  const found = chooseSandbox(undefined, denoExecutable());
  return found.kind === 'bwrap' ? false : `bubblewrap cannot run here (${found.warning ?? 'unknown reason'})`;
}

for (const sandbox of ['bwrap', 'none'] as const)
  describeUnless(sandbox === 'bwrap' && bwrapUnavailable())(`function isolation (FUNCTIONS_SANDBOX=${sandbox})`, () => {
    const logs = new LogCollector();
    const dns = new TestDnsServer();
    let root: string;
    let pool: InstancePool;
    let front: { url: string; close: () => Promise<void> };
    let secret: Awaited<ReturnType<typeof countingListener>>;
    let platform: Awaited<ReturnType<typeof recordingServer>>;
    let publicServer: Awaited<ReturnType<typeof recordingServer>>;
    let dialer: ReturnType<typeof recordingDialer>;
    const probe = (path: string, t = '') =>
      call(`${front.url}${path}?t=${encodeURIComponent(t)}`).then(
        (r) => JSON.parse(r.text) as { ok: boolean; name?: string; message?: string; value?: string },
      );

    beforeAll(async () => {
      // A variable of the platform's own, which no instance may read.
      process.env.PLATFORM_TEST_SECRET = 'never-seen-by-functions';
      await dns.start();
      dns.set('loopback.test', { a: ['127.0.0.1'] });
      dns.set('private.test', { a: ['10.0.0.1'] });
      dns.set('metadata.test', { a: ['169.254.169.254'] });
      dns.set('own.test', { a: [OWN_PUBLIC_ADDRESS] });
      secret = await countingListener();
      platform = await recordingServer('platform ok');
      publicServer = await recordingServer('public ok');
      dialer = recordingDialer({ [PUBLIC_ADDRESS]: publicServer.port });
      root = mkdtempSync(join(tmpdir(), 'fn-iso-'));
      pool = new InstancePool({
        sandbox,
        timeoutMs: 10_000,
        memoryMb: 64,
        idleMs: 600_000,
        maxInstances: 10,
        maxBodyBytes: 1024 * 1024,
        platformUrl: `${platform.url}/v1`,
        logs,
        root,
        resolve: resolverOn(dns.address),
        dial: dialer.dial,
        ownAddresses: [OWN_PUBLIC_ADDRESS],
      });
      const probeDeployment = deploymentOf(
        'dep_probe',
        { '/_server/index.js': PROBE, '/_server/lib/util.js': 'export const util = 1;\n' },
        { OWN_VAR: 'mine', PLATFORM_URL: `${platform.url}/v1` },
      );
      const other = deploymentOf('dep_other', {
        '/_server/index.js': 'export default { fetch: () => new Response("other") };\n',
        '/_server/secret.js': 'export const key = "other";\n',
      });
      front = await servePool(pool, (req) => (req.url?.startsWith('/other') ? other : probeDeployment));
      // The other deployment runs too: its code is on this node.
      expect((await call(`${front.url}/other`)).text).toBe('other');
    });

    afterAll(async () => {
      delete process.env.PLATFORM_TEST_SECRET;
      await front?.close();
      await pool?.shutdown(5000);
      await Promise.all([dns.stop(), secret?.close(), platform?.close(), publicServer?.close()]);
      rmSync(root, { recursive: true, force: true });
    });

    it(`runs ${sandbox === 'bwrap' ? 'inside bubblewrap' : 'with the permission flags alone'}`, () => {
      expect(pool.sandbox.kind).toBe(sandbox);
    });

    it('reads its own code, and nothing else on the file system: not the host, the runner, nor another deployment’s code', async () => {
      expect(await probe('/read-own')).toEqual({ ok: true, value: 'export const util = 1;\n' });
      const otherCode = join(root, 'code', 'dep_other', '_server', 'secret.js');
      expect(existsSync(otherCode)).toBe(true);
      const runner = fileURLToPath(new URL('../../dist/functions/runner/instance-runner.js', import.meta.url));
      for (const path of ['/etc/passwd', '/proc/self/environ', runner, '/runner.js', otherCode, root, '/code/../etc/hostname']) {
        const read = await probe('/read', path);
        expect({ path, ...read }).toMatchObject({ path, ok: false, name: 'NotCapable' });
      }
      const imported = await probe('/import', `file://${otherCode}`);
      expect(imported).toMatchObject({ ok: false });
      expect(imported.message).toMatch(/read access|not found|NotCapable/i);
    });

    it('writes nothing: not its code, not a temporary file, not its instance folder', async () => {
      const scratch = join(tmpdir(), `fn-written-${sandbox}`);
      for (const path of [
        scratch,
        join(root, 'code', 'dep_probe', '_server', 'index.js'),
        '/code/_server/index.js',
        join(root, 'run', 'x'),
        '/run/instance/x',
        '/tmp/x',
      ]) {
        expect({ path, ...(await probe('/write', path)) }).toMatchObject({ path, ok: false, name: 'NotCapable' });
      }
      expect(existsSync(scratch)).toBe(false);
    });

    it('starts no process and loads no native code', async () => {
      expect(await probe('/run')).toMatchObject({ ok: false, name: 'NotCapable' });
      expect(await probe('/ffi', '/lib/x86_64-linux-gnu/libc.so.6')).toMatchObject({ ok: false, name: 'NotCapable' });
    });

    it('opens no listening socket, TCP or Unix', async () => {
      expect(await probe('/listen-tcp')).toMatchObject({ ok: false, name: 'NotCapable' });
      expect(await probe('/listen-unix', join(tmpdir(), `fn-listen-${sandbox}.sock`))).toMatchObject({ ok: false, name: 'NotCapable' });
      expect(existsSync(join(tmpdir(), `fn-listen-${sandbox}.sock`))).toBe(false);
    });

    it('reads none of the platform’s environment; its env holds only its own variables', async () => {
      expect(await probe('/env-get', 'PLATFORM_TEST_SECRET')).toMatchObject({ ok: false, name: 'NotCapable' });
      expect(await probe('/env-get', 'PATH')).toMatchObject({ ok: false, name: 'NotCapable' });
      expect(await probe('/env-all')).toMatchObject({ ok: false, name: 'NotCapable' });
      const env = await probe('/env-arg');
      expect(JSON.parse(env.value!)).toEqual({ OWN_VAR: 'mine', PLATFORM_URL: `${platform.url}/v1` });
    });

    it('cannot open a connection of its own, to any address (only its fetch goes out, through the egress)', async () => {
      expect(await probe('/connect', String(secret.port))).toMatchObject({ ok: false, name: 'NotCapable' });
      expect(secret.connections()).toBe(0);
    });

    it('reaches no loopback, private, link-local or CGNAT address by IP literal, in any notation', async () => {
      const port = secret.port;
      const literals = [
        `http://127.0.0.1:${port}/`,
        `http://127.1:${port}/`,
        `http://2130706433:${port}/`, // decimal
        `http://0x7f000001:${port}/`, // hex
        `http://0177.0.0.1:${port}/`, // octal
        `http://[::ffff:127.0.0.1]:${port}/`, // IPv4-mapped IPv6
        `http://[::1]:${port}/`,
        `http://0.0.0.0:${port}/`,
        'http://10.0.0.1/',
        'http://172.16.5.4/',
        'http://192.168.1.1/',
        'http://169.254.169.254/latest/meta-data/', // cloud metadata
        'http://100.64.0.1/', // CGNAT
        'http://[fd00::1]/', // RFC 4193
        'http://[fe80::1]/',
        `https://127.0.0.1:${port}/`,
      ];
      for (const url of literals) {
        const answer = await probe('/fetch', url);
        expect({ url, ...answer }).toMatchObject({ url, ok: false, name: 'TypeError' });
        expect(answer.message).toMatch(/^fetch failed: .*(loopback, private, link-local or reserved)/);
      }
      expect(dialer.dialled).toEqual([]);
      expect(secret.connections()).toBe(0);
      expect(logs.of('dep_probe', 'system').filter((m) => m.startsWith('fetch refused:')).length).toBeGreaterThanOrEqual(literals.length);
    });

    it('reaches none of them by a name that resolves to one, nor this node’s own address', async () => {
      const before = dialer.dialled.length;
      for (const name of ['localhost', 'loopback.test', 'private.test', 'metadata.test', 'own.test']) {
        const answer = await probe('/fetch', `http://${name}:${secret.port}/`);
        expect({ host: name, ok: answer.ok, message: answer.message }).toEqual({
          host: name,
          ok: false,
          message: expect.stringMatching(/^fetch failed: .*\(.*\) is a loopback, private, link-local or reserved address/),
        });
      }
      expect(dialer.dialled.length).toBe(before);
      expect(secret.connections()).toBe(0);
    });

    it('is not fooled by DNS rebinding: the egress connects to the very address it checked, and refuses the rebound one', async () => {
      const name = `rebind-${sandbox}.test`;
      dns.answerInTurn(name, { a: [PUBLIC_ADDRESS] }, { a: ['127.0.0.1'] });
      const asked = () => dns.questions.filter((q) => q.name === name).length;

      const first = await probe('/fetch', `http://${name}:${secret.port}/first`);
      expect(first).toEqual({ ok: true, value: '200 public ok' });
      // One question, one connection, to the public answer (a local stand-in here), though the name now says loopback.
      expect(asked()).toBe(1);
      expect(dialer.dialled.at(-1)).toBe(`${PUBLIC_ADDRESS}:${secret.port}`);
      expect(publicServer.seen.at(-1)).toMatchObject({ url: '/first', headers: { host: `${name}:${secret.port}` } });

      const dialledBefore = dialer.dialled.length;
      const second = await probe('/fetch', `http://${name}:${secret.port}/second`);
      expect(second).toMatchObject({ ok: false, name: 'TypeError' });
      expect(second.message).toContain('127.0.0.1');
      expect(dialer.dialled.length).toBe(dialledBefore);
      expect(secret.connections()).toBe(0);
    });

    it('reaches PLATFORM_URL, whatever its address, with the headers it sent and none of the platform’s', async () => {
      const answer = await probe('/fetch', `${platform.url}/v1/users`);
      expect(answer).toEqual({ ok: true, value: '200 platform ok' });
      const seen = platform.seen.at(-1)!;
      expect(seen.url).toBe('/v1/users');
      expect(seen.headers.host).toBe(`127.0.0.1:${platform.port}`);
      expect(Object.keys(seen.headers).filter((h) => h.startsWith('x-platform'))).toEqual([]);
      // Another port on the same loopback address is still refused.
      expect(await probe('/fetch', `http://127.0.0.1:${secret.port}/`)).toMatchObject({ ok: false });
      expect(secret.connections()).toBe(0);
    });

    if (sandbox === 'bwrap') {
      it('bubblewrap alone holds too: with every Deno permission granted, the sandbox has no host files, no network, no writable code and no host environment', async () => {
        const deno = denoExecutable();
        const runDir = mkdtempSync(join(tmpdir(), 'fn-os-'));
        mkdirSync(join(runDir, 'run'));
        const codeDir = join(root, 'code', 'dep_probe');
        const command = instanceCommand({
          sandbox: 'bwrap',
          deno,
          runner: fileURLToPath(new URL('../../dist/functions/runner/instance-runner.js', import.meta.url)),
          codeDir,
          runDir: join(runDir, 'run'),
          egress: { kind: 'unix', path: '/dev/null' },
          memoryMb: 64,
          libraries: pool.sandbox.libraries,
          tools: { bwrap: pool.sandbox.tools.bwrap },
        });
        // Everything up to Deno's own arguments is the sandbox; Deno then runs a script with -A (all permissions).
        const sandboxArgs = command.args.slice(0, command.args.lastIndexOf('/deno') + 1);
        const script = `
        const tryIt = async (f) => { try { return 'ok ' + String(await f()).slice(0, 60); } catch (e) { return e.name + ': ' + e.message.slice(0, 80); } };
        console.log(JSON.stringify({
          passwd: await tryIt(() => Deno.readTextFile('/etc/passwd')),
          platformCode: await tryIt(() => Deno.readTextFile('${fileURLToPath(import.meta.url)}')),
          writeCode: await tryIt(() => Deno.writeTextFile('/code/_server/index.js', 'x')),
          writeRoot: await tryIt(() => Deno.writeTextFile('/x', 'x')),
          shell: await tryIt(() => new Deno.Command('/bin/sh').output()),
          connect: await tryIt(() => Deno.connect({ hostname: '127.0.0.1', port: ${secret.port} })),
          dns: await tryIt(() => Deno.resolveDns('example.com', 'A')),
          env: Object.keys(Deno.env.toObject()).sort().join(','),
        }));`;
        const child = spawn(command.file, [...sandboxArgs, 'eval', '-A', script], { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        let err = '';
        child.stdout.on('data', (c: Buffer) => (out += c));
        child.stderr.on('data', (c: Buffer) => (err += c));
        await new Promise((resolve) => child.on('exit', resolve));
        rmSync(runDir, { recursive: true, force: true });
        expect({ out: out.slice(0, 1), err }).toEqual({ out: '{', err: '' });
        const seen = JSON.parse(out) as Record<string, string>;
        expect(seen.passwd).toMatch(/^NotFound/);
        expect(seen.platformCode).toMatch(/^NotFound/);
        expect(seen.writeCode).toMatch(/Read-only file system|PermissionDenied/);
        expect(seen.writeRoot).toMatch(/Read-only file system|PermissionDenied/);
        expect(seen.shell).toMatch(/^NotFound/);
        expect(seen.connect).toMatch(/ConnectionRefused|unreachable/i);
        expect(seen.dns).not.toMatch(/^ok/);
        // Only what the sandbox sets (bwrap adds PWD for --chdir).
        expect(seen.env).toBe('DENO_DIR,DENO_NO_UPDATE_CHECK,NO_COLOR,PWD');
        expect(secret.connections()).toBe(0);
      });
    }
  });
