import { instanceCommand, type InstanceLayout } from './instance-command.js';

const layout: InstanceLayout = {
  sandbox: 'none',
  deno: '/opt/deno',
  runner: '/app/dist/functions/runner/instance-runner.js',
  codeDir: '/tmp/f/code/dep_1',
  runDir: '/tmp/f/run/1/run',
  egress: { kind: 'tcp', port: 4567 },
  memoryMb: 128,
  libraries: ['/lib/x86_64-linux-gnu/libc.so.6'],
  tools: { nice: '/usr/bin/nice', bwrap: '/usr/bin/bwrap' },
};

describe('instanceCommand', () => {
  it('without the sandbox: read only the code and the sockets, no write but the socket, net only to the egress port; a clean environment', () => {
    const command = instanceCommand(layout);
    expect(command.file).toBe('/usr/bin/nice');
    expect(command.args).toEqual([
      '-n',
      '10',
      '/opt/deno',
      'run',
      '--no-prompt',
      '--no-remote',
      '--no-npm',
      '--no-config',
      '--no-lock',
      '--unstable-no-legacy-abort',
      '--allow-read=/tmp/f/code/dep_1,/tmp/f/run/1/run/http.sock',
      '--allow-write=/tmp/f/run/1/run/http.sock',
      '--allow-net=unix:/tmp/f/run/1/run/http.sock,127.0.0.1:4567',
      '--v8-flags=--max-old-space-size=128',
      '/app/dist/functions/runner/instance-runner.js',
    ]);
    expect(command.args.some((a) => /^--allow-(env|run|ffi|sys|all|import)|^-A$/.test(a))).toBe(false);
    expect(command.env).toEqual({ NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1', DENO_DIR: '/tmp/f/run/1/run/deno' });
    expect(command.inside.egress).toEqual({ kind: 'tcp', url: 'http://127.0.0.1:4567/' });
  });

  it('in bubblewrap: every namespace, no capabilities, only Deno, its libraries, the runner and the code mounted (read-only), the egress as a socket', () => {
    const command = instanceCommand({ ...layout, sandbox: 'bwrap', egress: { kind: 'unix', path: '/tmp/f/run/1/egress.sock' } });
    expect(command.file).toBe('/usr/bin/nice');
    const args = command.args.join(' ');
    expect(args).toContain('/usr/bin/bwrap --unshare-all --uid 65534 --gid 65534 --cap-drop ALL --die-with-parent --new-session --clearenv');
    expect(args).toContain('--ro-bind /opt/deno /deno --ro-bind /lib/x86_64-linux-gnu/libc.so.6 /lib/x86_64-linux-gnu/libc.so.6');
    expect(args).toContain('--ro-bind /tmp/f/code/dep_1 /code --bind /tmp/f/run/1/run /run/instance --ro-bind /tmp/f/run/1/egress.sock /egress.sock');
    expect(args).toContain('--remount-ro /');
    expect(args).toContain(
      '/deno run --no-prompt --no-remote --no-npm --no-config --no-lock --unstable-no-legacy-abort --allow-read=/code,/run/instance/http.sock,/egress.sock --allow-write=/run/instance/http.sock,/egress.sock --allow-net=unix:/run/instance/http.sock,unix:/egress.sock,egress.invalid',
    );
    expect(args).not.toMatch(/--share-net|--bind \/ |--proc/);
    expect(command.env).toEqual({});
    expect(command.inside).toMatchObject({ entryRoot: '/code', socket: '/run/instance/http.sock', egress: { kind: 'unix', path: '/egress.sock' } });
  });
});
