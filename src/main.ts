import 'reflect-metadata';
import { preflight } from './config/preflight.js';
import { startupErrorLine } from './config/startup-errors.js';
import type { RunningServer } from './server.js';

/**
 * `npm start`: boots the server; SIGTERM or SIGINT (also during the start) ends in a clean
 * shutdown and exit code 0. A failed start prints one line on stderr and exits 1 (at once when
 * `preflight` sees it).
 */
async function main(): Promise<void> {
  const state: { server?: RunningServer; stopping?: string } = {};
  const shutdown = (signal: string) => {
    if (state.stopping) return; // a second signal while the first one's shutdown runs changes nothing
    state.stopping = signal;
    if (state.server) void stop(state.server, signal);
  };
  // `on`, never `once`: the listeners must stay for the whole shutdown. signal-exit (loaded with the
  // local AI model, via node-llama-cpp's proper-lockfile) re-raises a signal when it finds itself the
  // only listener, and `once` removes ours before signal-exit runs: the process died with 143.
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  // A start that cannot succeed (a bad setting, DATA_DIR or the port taken) fails here, before the app is loaded.
  await preflight(process.env);
  const { logStartup, startServer } = await import('./server.js');
  state.server = await startServer();
  if (state.stopping) return stop(state.server, state.stopping);
  logStartup(state.server);
}

async function stop(server: RunningServer, signal: string): Promise<void> {
  try {
    await server.close();
    process.exit(0);
  } catch (err) {
    console.error(`Shutdown after ${signal} failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}

main().catch((err: unknown) => {
  console.error(startupErrorLine(err));
  // An unexpected failure's stack, for whoever asks for it.
  if (/^(debug|trace)$/.test(process.env.LOG_LEVEL ?? '') && err instanceof Error) console.error(err.stack);
  process.exit(1);
});
