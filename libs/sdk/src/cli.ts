#!/usr/bin/env node
/**
 * The SDK's command line: `platform-sdk deploy <dir> --app <appId> [--env production] [--spa] [--publish] [--json]`,
 * and `platform-sdk split start|status|end --app <appId>` (cli-split.ts).
 * The key comes from PLATFORM_API_KEY, the server from PLATFORM_BASE_URL (default http://localhost:3000).
 */
import { parseArgs } from 'node:util';
import { PlatformClient } from './client.js';
import type { DeployDirectoryResult, DeployProgress } from './deploy-directory.js';
import { PlatformError } from './errors.js';
import { splitCommand } from './cli-split.js';

const USAGE = `Usage: platform-sdk deploy <dir> --app <appId> [--env production] [--spa] [--publish] [--json]
       platform-sdk split start|status|end --app <appId> … (platform-sdk split --help)

Deploys the files of <dir> (a web app's build output) with the app's landing page: hashes them, uploads
only those the server does not have, deploys, and prints the deployment's url.

  --app <appId>   the app to deploy (required)
  --env <name>    the environment (default: production)
  --spa           serve /index.html for unknown paths without an extension (client-side routing)
  --publish       publish the deployment at the app's public address
  --json          print one JSON object (the result, or the error) and nothing else

Environment: PLATFORM_API_KEY (a key with deployments:write; apps:write for --publish),
PLATFORM_BASE_URL (default http://localhost:3000).`;

/** Exit codes: 0 deployed, 1 the deploy failed, 2 the command line is wrong. */
async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'split') return splitCommand(argv.slice(1));
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        app: { type: 'string' },
        env: { type: 'string', default: 'production' },
        spa: { type: 'boolean', default: false },
        publish: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (err) {
    return usage((err as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    print(USAGE);
    return 0;
  }
  const [command, dir, ...extra] = positionals;
  if (command !== 'deploy' || !dir || extra.length > 0) return usage(command && command !== 'deploy' ? `Unknown command ${command}` : 'Expected: deploy <dir>');
  if (!values.app) return usage('--app <appId> is required');
  const apiKey = process.env.PLATFORM_API_KEY;
  if (!apiKey) return usage('Set PLATFORM_API_KEY to an API key with the deployments:write scope');

  const json = values.json;
  const client = new PlatformClient({ apiKey, baseUrl: process.env.PLATFORM_BASE_URL ?? 'http://localhost:3000' });
  try {
    const result = await client.deployDirectory(dir, {
      appId: values.app,
      env: values.env,
      ...(values.spa ? { spa: true } : {}),
      publish: values.publish,
      onProgress: json ? undefined : progressPrinter(),
    });
    if (json) print(JSON.stringify(summary(result)));
    else print(result.deployment.url);
    return 0;
  } catch (err) {
    const error = err instanceof PlatformError ? { status: err.status, reason: err.reason, message: err.message } : { message: (err as Error).message };
    if (json) print(JSON.stringify({ error }));
    else console.error(`Deploy failed: ${error.message}${error.reason ? ` (${error.reason})` : ''}`);
    return 1;
  }
}

/** A line on stdout: what the command answers (the url, or the JSON object), and its progress. */
function print(line: string): void {
  process.stdout.write(`${line}\n`);
}

function usage(problem: string): number {
  console.error(`${problem}\n\n${USAGE}`);
  return 2;
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
  const { deploymentId, url, appId, env, createdAt } = result.deployment;
  return {
    deploymentId,
    url,
    appId,
    env,
    createdAt,
    files: result.files,
    bytes: result.bytes,
    uploaded: result.uploaded,
    ...(result.app ? { publicUrl: result.app.publicUrl } : {}),
  };
}

function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

void main(process.argv.slice(2)).then((code) => (process.exitCode = code));
