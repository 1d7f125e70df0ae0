// The e2e spec files that run on one target only: their subject is the same whatever the database and Redis —
// a browser driving pages whose routes other specs test on both targets, a client library or a CLI in front of the
// same HTTP API, the docs against the code, a child process's memory or CPU — so a second run on the other target
// would repeat the same assertions at the same cost (the browser specs are the most expensive files of a run).
// They run on PostgreSQL + Redis when DATABASE_URL is set (production's target), else on the embedded default: every
// configuration runs every spec at least once. jest.config.cjs (one file at a time) and e2e-groups.ts (groups) read
// this list; docs/development.md says why.

/** Spec files (without `.e2e-spec.ts`) beyond the `*-browser` ones. */
const ONE_TARGET = [
  'ai-gateway-python', // the official Python client against the gateway (ai-gateway runs on both)
  'docs-drift', // the reference docs against the built OpenAPI document
  'sdk-cli',
  'sdk-python',
  'sdk-ts',
  'site-compression', // the compression pool's CPU: no database on that path
  'site-memory', // a child server's RSS under uploads and first reads
  'tls-proxy', // Caddy in front (the TLS ask's answers are tested on both in tls-ask)
];

/** Whether the spec file (a path or a base name) runs on one target only. */
function runsOnOneTarget(file) {
  const name = file
    .split(/[\\/]/)
    .pop()
    .replace(/\.e2e-spec\.ts$/, '');
  return name.endsWith('-browser') || ONE_TARGET.includes(name);
}

/** The target that runs the one-target specs in this configuration. */
function oneTarget(env = process.env) {
  return env.DATABASE_URL ? 'postgres' : 'embedded';
}

/** Whether `file` runs on `target` ('embedded' | 'postgres') in this configuration. */
function runsOn(file, target, env = process.env) {
  return !runsOnOneTarget(file) || target === oneTarget(env);
}

module.exports = { ONE_TARGET, runsOnOneTarget, oneTarget, runsOn };
