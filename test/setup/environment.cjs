// Jest's node environment, plus a wait at the end of each test file for what its tests left closing (sockets being
// shut down, a child process being reaped, a last timer): up to 2 s, until only the worker's own pipes remain.
// A worker asked to exit right after a file that left such a handle did not exit within the 500 ms Jest gives it
// ("A worker process has failed to exit gracefully"). What is still open after the wait is a leak: it is named, with
// the file, on the console.
const NodeEnvironment = require('jest-environment-node').TestEnvironment;

/** The worker's own handles: its pipes to Jest, and a terminal. */
const OWN = new Set(['PipeWrap', 'TTYWrap']);
const WAIT_MS = 2000;

function leftOpen() {
  return process.getActiveResourcesInfo().filter((type) => !OWN.has(type));
}

/** The open TCP sockets' ends (`local → remote`), which say whose they are: a leak names its server. */
function socketsOpen() {
  const sockets = (process._getActiveHandles?.() ?? []).filter((h) => h && typeof h.remotePort === 'number');
  return sockets.length === 0 ? '' : ` (sockets ${sockets.map((s) => `${s.localPort} → ${s.remoteAddress}:${s.remotePort}`).join(', ')})`;
}

class Environment extends NodeEnvironment {
  constructor(config, context) {
    super(config, context);
    this.testPath = context.testPath;
  }

  async teardown() {
    await super.teardown();
    const end = Date.now() + WAIT_MS;
    // (The wait's own timer is unref'd: it is not among the active resources.)
    while (leftOpen().length > 0 && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 20).unref());
    const open = leftOpen();
    if (open.length > 0) {
      const counts = [...new Set(open)].map((type) => `${type} x${open.filter((t) => t === type).length}`).join(', ');
      process.stderr.write(`${this.testPath}: still open ${WAIT_MS} ms after its tests: ${counts}${socketsOpen()}\n`);
    }
  }
}

module.exports = Environment;
