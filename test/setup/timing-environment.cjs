// The tests' environment (environment.cjs), plus one line per test file appended to TEST_TIMING_FILE: its wall time and the CPU
// time its worker spent on it (its own and that of the child processes it waited for: dist/main.js, the SDK CLI,
// python3, caddy...). CPU decides how long the suite takes on an idle machine; wall time alone says little on a
// shared one. Used only when TEST_TIMING_FILE is set (jest.config.cjs); scripts/test-timing.mjs sums the lines.
const { appendFileSync, readFileSync } = require('node:fs');
const Environment = require('./environment.cjs');

/** utime, stime, cutime, cstime of this process, in milliseconds (Linux). */
function cpu() {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  const tick = 10; // USER_HZ is 100 on Linux
  return { self: (Number(fields[11]) + Number(fields[12])) * tick, children: (Number(fields[13]) + Number(fields[14])) * tick };
}

class TimingEnvironment extends Environment {
  constructor(config, context) {
    super(config, context);
    this.testPath = context.testPath;
    this.project = config.projectConfig.displayName?.name ?? '';
    this.started = { wall: Date.now(), cpu: cpu() };
  }

  async teardown() {
    await super.teardown();
    const now = cpu();
    const line = {
      project: this.project,
      file: this.testPath,
      startedAt: this.started.wall, // epoch ms: with wallMs, each worker's timeline
      wallMs: Date.now() - this.started.wall,
      cpuMs: now.self - this.started.cpu.self,
      childCpuMs: now.children - this.started.cpu.children,
      // Which worker ran it, and its heap after the file: a new pid is a new worker (started cold: see jest.config.cjs).
      pid: process.pid,
      heapMb: Math.round(process.memoryUsage().heapUsed / 2 ** 20),
    };
    appendFileSync(process.env.TEST_TIMING_FILE, `${JSON.stringify(line)}\n`);
  }
}

module.exports = TimingEnvironment;
