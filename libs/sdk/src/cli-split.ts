/**
 * `platform-sdk split start|status|end --app <appId>`: the split test of an app's published address (see
 * `client.splits`). A block of its own: cli.ts only hands it the arguments after `split`.
 */
import type { SplitResults, SplitVariant } from './client.js';
import { clientFor, failed, help, HELP, parse, print, UsageError } from './cli-common.js';

export const SPLIT_USAGE = `Usage: platform-sdk split start --app <appId> <deploymentId>=<weight> <deploymentId>=<weight> … [--json]
       platform-sdk split status --app <appId> [--json]
       platform-sdk split end --app <appId>

A split test serves each visitor of the app's published address one of 2–4 production deployments, by weight
(whole percents, 1–99, summing to 100), the same one all day, without a cookie; the first variant is the one the
others are compared with. status prints each variant's visitors, sign-ups, conversion and chance to beat the first
("—" until it can be computed); end serves the published deployment to everyone again (publishing one ends it too).

  --app <appId>   the app (required)
  --json          print the server's answer as one JSON object

Environment: PLATFORM_API_KEY (a key with deployments:write; apps:read for status),
PLATFORM_BASE_URL (default http://localhost:3000).`;

const SUBCOMMANDS = ['start', 'status', 'end'] as const;
type Subcommand = (typeof SUBCOMMANDS)[number];

/** Exit codes: 0 done, 1 the server refused (or could not be reached), 2 the command line is wrong (a UsageError). */
export async function splitCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse(
    { args: argv, allowPositionals: true, options: { ...HELP, app: { type: 'string' }, json: { type: 'boolean', default: false } } },
    SPLIT_USAGE,
  );
  if (values.help) return help(SPLIT_USAGE);
  const [sub, ...rest] = positionals;
  if (!SUBCOMMANDS.includes(sub as Subcommand)) throw new UsageError(sub ? `Unknown split command ${sub}` : 'Expected: split start|status|end', SPLIT_USAGE);
  if (!values.app) throw new UsageError('--app <appId> is required', SPLIT_USAGE);
  let variants: SplitVariant[] = [];
  if (sub === 'start') {
    const read = parseVariants(rest);
    if (typeof read === 'string') throw new UsageError(read, SPLIT_USAGE);
    variants = read;
  } else if (rest.length > 0) throw new UsageError(`split ${sub} takes no arguments (got ${rest.join(' ')})`, SPLIT_USAGE);
  const client = clientFor(SPLIT_USAGE);
  try {
    if (sub === 'start') {
      const split = await client.splits.start(values.app, variants);
      print(values.json ? JSON.stringify(split) : `Started split test ${split.id}: ${split.variants.map((v) => `${v.deploymentId} ${v.weight} %`).join(', ')}`);
    } else if (sub === 'status') {
      const split = await client.splits.get(values.app);
      print(values.json ? JSON.stringify(split) : statusTable(split));
    } else {
      await client.splits.end(values.app);
      if (!values.json) print('Split test ended: the published deployment serves everyone');
    }
    return 0;
  } catch (err) {
    return failed(`Split ${sub}`, err, values.json);
  }
}

/**
 * `<deploymentId>=<weight>` pairs, or what is wrong with them. Only the shape is checked here: the server judges the
 * rest (2–4 variants, weights summing to 100, production deployments of the app) and names the field it refuses.
 */
export function parseVariants(args: string[]): SplitVariant[] | string {
  if (args.length === 0) return 'Expected the variants: <deploymentId>=<weight> …';
  const variants: SplitVariant[] = [];
  for (const arg of args) {
    const match = /^([^=\s]+)=(\d{1,3})$/.exec(arg);
    if (!match) return `A variant is <deploymentId>=<weight> (a whole percent), not ${JSON.stringify(arg)}`;
    variants.push({ deploymentId: match[1], weight: Number(match[2]) });
  }
  return variants;
}

/** The results as a table: one row per variant, the first marked, the chance "—" while it cannot be computed. */
export function statusTable(split: SplitResults): string {
  const header = ['DEPLOYMENT', 'WEIGHT', 'VISITORS', 'SIGN-UPS', 'CONVERSION', 'CHANCE TO BEAT FIRST'];
  const rows = split.variants.map((v, i) => [
    `${v.deploymentId}${i === 0 ? ' (first)' : ''}`,
    `${v.weight} %`,
    String(v.visitors),
    String(v.signups),
    `${v.conversionRate.toFixed(1)} %`,
    v.chanceToBeatFirst === null ? '—' : `${(v.chanceToBeatFirst * 100).toFixed(1)} %`,
  ]);
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c])))
      .join('  ')
      .trimEnd();
  return [`Split test ${split.id}, running since ${split.startedAt}`, line(header), ...rows.map(line)].join('\n');
}
