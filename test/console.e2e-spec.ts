import { startChildServer } from './support/child-server.js';
import { dropFreshResources, freshEnvironment, target } from './support/fresh-database.js';

/** What `node dist/main.js` prints at info until it listens (its stdout a pipe), with LOG_FORMAT or without. */
async function startUpLines(format?: 'pretty'): Promise<string[]> {
  const env = await freshEnvironment();
  try {
    const child = await startChildServer(format ? { ...env, LOG_FORMAT: format } : env);
    await child.stop();
    const output = child.output();
    return output
      .slice(0, output.indexOf('\n', output.indexOf('Listening on')) + 1)
      .split('\n')
      .filter(Boolean);
  } finally {
    await dropFreshResources(env);
  }
}

describe(`the console at start-up (${target})`, () => {
  it('LOG_FORMAT=pretty: one readable line per message, a dozen at most, without the route table', async () => {
    const lines = await startUpLines('pretty');
    expect(lines.filter((line) => !/^\d\d:\d\d:\d\d\.\d{3} (INFO|WARN) {1,2}\S/.test(line))).toEqual([]);
    expect(lines.length).toBeLessThanOrEqual(12);
    expect(lines.join('\n')).not.toMatch(/RouterExplorer|RoutesResolver|InstanceLoader|Mapped \{/);
    expect(lines[lines.length - 1]).toMatch(/ INFO {2}\[Bootstrap\] Listening on /);
  }, 150_000);

  it('JSON otherwise (the default where stdout is not a terminal), as quiet', async () => {
    const lines = await startUpLines();
    const parsed = lines.map((line) => JSON.parse(line) as { level: number; msg: string; context?: string });
    expect(parsed.length).toBeLessThanOrEqual(12);
    expect(parsed.filter((line) => ['RouterExplorer', 'RoutesResolver', 'InstanceLoader'].includes(line.context ?? ''))).toEqual([]);
    expect(parsed[parsed.length - 1]).toMatchObject({ level: 30, context: 'Bootstrap', msg: expect.stringMatching(/^Listening on /) });
  }, 150_000);
});
