#!/usr/bin/env node
/**
 * The SDK's command line: `platform-sdk <command> …` — deploy, env (set, ls, rm), logs, split (start, status, end:
 * cli-split.ts). Each command parses its own options (below, one block each). The key comes from PLATFORM_API_KEY,
 * the server from PLATFORM_BASE_URL (default http://localhost:3000).
 */
import type { DeployDirectoryResult, DeployProgress } from './deploy-directory.js';
import { clientFor, ENVIRONMENT, failed, help, HELP, parse, print, usage, UsageError } from './cli-common.js';
import { splitCommand } from './cli-split.js';

const USAGE = `Usage: platform-sdk deploy <dir> --app <appId> [--env production] [--functions <dir>] [--spa] [--publish] [--json]
       platform-sdk env set <NAME> <value> [--secret] --app <appId> [--env production]
       platform-sdk env ls --app <appId> [--env production]
       platform-sdk env rm <NAME> --app <appId> [--env production]
       platform-sdk logs <deploymentId> [--follow] [--since <time>] [--limit <n>]
       platform-sdk split start|status|end --app <appId> …

Run a command with --help for its options.

${ENVIRONMENT}`;

const DEPLOY_USAGE = `Usage: platform-sdk deploy <dir> --app <appId> [--env production] [--spa] [--publish] [--json]
                           [--functions <dir> [--entry <file>] [--routes <paths>]]

Deploys the files of <dir> (a web app's build output) with the app's landing page: hashes them, uploads
only those the server does not have, deploys, and prints the deployment's url.

  --app <appId>        the app to deploy (required)
  --env <name>         the environment (default: production)
  --spa                serve /index.html for unknown paths without an extension (client-side routing)
  --publish            publish the deployment at the app's public address
  --functions <dir>    server code: the folder is deployed under /_server/ (never served as files) and runs on the
                       deployment's origin; its index.js or index.ts is the entry
  --entry <file>       the entry instead, a file of the --functions folder (main.ts)
  --routes <paths>     the paths the server code answers, comma-separated or repeated (default: /api/*)
  --json               print one JSON object (the result, or the error) and nothing else

Environment: PLATFORM_API_KEY (a key with deployments:write; apps:write for --publish),
PLATFORM_BASE_URL (default http://localhost:3000).`;

const ENV_USAGE = `Usage: platform-sdk env set <NAME> <value> [--secret] --app <appId> [--env production] [--json]
       platform-sdk env ls --app <appId> [--env production] [--json]
       platform-sdk env rm <NAME> --app <appId> [--env production]

The environment variables of an app environment, for its server code (--functions). A deploy takes them as
they are: a change applies from the next deploy. A secret's value is never shown again.

  --app <appId>   the app (required)
  --env <name>    the environment (default: production)
  --secret        set: store the value as a secret (encrypted, never shown again)
  --json          print the result as JSON
  <value>         set: the value; - reads it from standard input (kept out of the shell's history)

${ENVIRONMENT} set and rm need deployments:write, ls apps:read.`;

const LOGS_USAGE = `Usage: platform-sdk logs <deploymentId> [--follow] [--since <time>] [--limit <n>] [--json]

A deployment's server code logs: console output, one line per request, and the platform's lines.

  --follow        keep printing new lines as they are written (from now on, or after --since); Ctrl-C ends
  --since <time>  lines after this ISO 8601 time (2026-11-29T10:00:00Z)
  --limit <n>     without --follow, the newest n lines (1-1000, default 100)
  --json          one JSON object per line

${ENVIRONMENT} It needs apps:read.`;

/** Exit codes: 0 done, 1 the server refused or could not be reached, 2 the command line is wrong. */
type Command = (argv: string[]) => Promise<number>;

const COMMANDS: Record<string, Command> = {
  deploy: deployCommand,
  env: envCommand,
  logs: logsCommand,
  split: splitCommand,
};

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined) return usage('Expected a command', USAGE);
  if (command === '--help' || command === '-h' || command === 'help') return help(USAGE);
  const run = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!run) return usage(`Unknown command ${command}`, USAGE);
  try {
    return await run(rest);
  } catch (err) {
    if (err instanceof UsageError) return usage(err.message, err.usage);
    throw err;
  }
}

// ---- deploy ----------------------------------------------------------------------------------------------------

async function deployCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse(
    {
      args: argv,
      allowPositionals: true,
      options: {
        ...HELP,
        app: { type: 'string' },
        env: { type: 'string', default: 'production' },
        spa: { type: 'boolean', default: false },
        publish: { type: 'boolean', default: false },
        functions: { type: 'string' },
        entry: { type: 'string' },
        routes: { type: 'string', multiple: true },
        json: { type: 'boolean', default: false },
      },
    },
    DEPLOY_USAGE,
  );
  if (values.help) return help(DEPLOY_USAGE);
  const [dir, ...extra] = positionals;
  if (!dir || extra.length > 0) throw new UsageError('Expected: deploy <dir>', DEPLOY_USAGE);
  if (!values.app) throw new UsageError('--app <appId> is required', DEPLOY_USAGE);
  if (!values.functions && (values.entry !== undefined || values.routes !== undefined)) {
    throw new UsageError('--entry and --routes go with --functions <dir>', DEPLOY_USAGE);
  }
  const routes = values.routes
    ?.flatMap((r) => r.split(','))
    .map((r) => r.trim())
    .filter((r) => r !== '');
  const client = clientFor(DEPLOY_USAGE);

  const json = values.json;
  try {
    const result = await client.deployDirectory(dir, {
      appId: values.app,
      env: values.env,
      ...(values.spa ? { spa: true } : {}),
      ...(values.functions ? { functions: { dir: values.functions, entry: values.entry, routes } } : {}),
      publish: values.publish,
      onProgress: json ? undefined : progressPrinter(),
    });
    if (json) print(JSON.stringify(summary(result)));
    else print(result.deployment.url);
    return 0;
  } catch (err) {
    return failed('Deploy', err, json);
  }
}

/** One line when hashing ends, one per uploaded file (with the running total), one when deployed. */
function progressPrinter(): (progress: DeployProgress) => void {
  return (p) => {
    if (p.phase === 'hashing' && p.files === p.total) print(`Hashed ${p.files} files (${bytes(p.bytes)})`);
    if (p.phase === 'uploading') print(`Uploaded ${p.files}/${p.total} files (${bytes(p.bytes)} of ${bytes(p.totalBytes)})`);
    if (p.phase === 'deployed') print(`Deployed ${p.deploymentId}`);
    if (p.phase === 'published') print(`Published at ${p.publicUrl}`);
  };
}

function summary(result: DeployDirectoryResult) {
  const { deploymentId, url, appId, env, createdAt, config } = result.deployment;
  return {
    deploymentId,
    url,
    appId,
    env,
    createdAt,
    files: result.files,
    bytes: result.bytes,
    uploaded: result.uploaded,
    ...(config?.functions ? { functions: config.functions } : {}),
    ...(result.app ? { publicUrl: result.app.publicUrl } : {}),
  };
}

function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

// ---- env -------------------------------------------------------------------------------------------------------

async function envCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse(
    {
      args: argv,
      allowPositionals: true,
      options: {
        ...HELP,
        app: { type: 'string' },
        env: { type: 'string', default: 'production' },
        secret: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
      },
    },
    ENV_USAGE,
  );
  if (values.help) return help(ENV_USAGE);
  const [action, ...args] = positionals;
  const arity: Record<string, number> = { set: 2, ls: 0, rm: 1 };
  if (action === undefined || !Object.hasOwn(arity, action))
    throw new UsageError(action ? `Unknown env command ${action}` : 'Expected: env set|ls|rm', ENV_USAGE);
  if (args.length !== arity[action]) throw new UsageError(`Expected: env ${action}${['', ' <NAME>', ' <NAME> <value>'][arity[action]]}`, ENV_USAGE);
  if (!values.app) throw new UsageError('--app <appId> is required', ENV_USAGE);
  if (values.secret && action !== 'set') throw new UsageError('--secret goes with env set', ENV_USAGE);
  const client = clientFor(ENV_USAGE);
  const { app, env, json } = values;
  try {
    if (action === 'ls') {
      const vars = await client.env.list(app, env);
      if (json) print(JSON.stringify(vars));
      else if (vars.length === 0) print(`No variables in ${env}.`);
      else for (const v of vars) print(`${v.name}=${v.secret ? '(secret)' : v.value}`);
    } else if (action === 'set') {
      const [name, given] = args;
      const value = given === '-' ? await readStdin() : given;
      const set = await client.env.set(app, env, name, value, { secret: values.secret });
      if (json) print(JSON.stringify(set));
      else print(`Set ${set.name}${set.secret ? ' (secret)' : ''} in ${env}: it applies from the next deploy.`);
    } else {
      await client.env.remove(app, env, args[0]);
      if (json) print(JSON.stringify({ removed: args[0] }));
      else print(`Removed ${args[0]} from ${env}: it applies from the next deploy.`);
    }
    return 0;
  } catch (err) {
    return failed(`env ${action}`, err, json);
  }
}

/** The whole of standard input, one final line break dropped (what `echo value |` adds). */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

// ---- logs ------------------------------------------------------------------------------------------------------

async function logsCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse(
    {
      args: argv,
      allowPositionals: true,
      options: {
        ...HELP,
        follow: { type: 'boolean', short: 'f', default: false },
        since: { type: 'string' },
        limit: { type: 'string' },
        json: { type: 'boolean', default: false },
      },
    },
    LOGS_USAGE,
  );
  if (values.help) return help(LOGS_USAGE);
  const [deploymentId, ...extra] = positionals;
  if (!deploymentId || extra.length > 0) throw new UsageError('Expected: logs <deploymentId>', LOGS_USAGE);
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1 && limit <= 1000))
    throw new UsageError('--limit must be a whole number from 1 to 1000', LOGS_USAGE);
  if (values.follow && limit !== undefined) throw new UsageError('--limit goes without --follow', LOGS_USAGE);
  const client = clientFor(LOGS_USAGE);
  const show = (line: { at: string; level: string; message: string }) =>
    print(values.json ? JSON.stringify(line) : `${line.at} ${line.level.padEnd(7)} ${line.message}`);
  try {
    if (!values.follow) {
      for (const line of await client.deployments.logs(deploymentId, { since: values.since, limit })) show(line);
      return 0;
    }
    // Ctrl-C (or a TERM) ends the stream and the command, exit code 0: following has no other end.
    const stop = new AbortController();
    const end = () => stop.abort();
    process.once('SIGINT', end);
    process.once('SIGTERM', end);
    try {
      const lines = client.deployments.followLogs(deploymentId, { since: values.since, signal: stop.signal });
      console.error(`Following the logs of ${deploymentId} (Ctrl-C to stop)`);
      for await (const line of lines) show(line);
    } finally {
      process.off('SIGINT', end);
      process.off('SIGTERM', end);
    }
    if (!stop.signal.aborted) throw new Error('the server ended the stream');
    return 0;
  } catch (err) {
    return failed('logs', err, values.json);
  }
}

void main(process.argv.slice(2)).then((code) => (process.exitCode = code));
