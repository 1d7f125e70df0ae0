/**
 * LOG_FORMAT=pretty: pino's JSON lines turned into one readable line per message, for a terminal —
 * `12:04:05.123 INFO  [Bootstrap] Listening on …`, a request as `GET /v1/apps 200 3.1 ms`, any other
 * fields as `key=value` after the message, an error's stack on the lines below. The same lines as
 * JSON, with the same redactions (the formatter only ever sees what pino already wrote).
 */

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const COLOURS: Record<number, string> = { 10: '90', 20: '90', 30: '32', 40: '33', 50: '31', 60: '35' };
/** Fields every line has, or that the line's own layout already shows. */
const SHOWN = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'context', 'err', 'stack']);

interface LogLine {
  level?: number;
  time?: number;
  msg?: string;
  context?: string;
  err?: { type?: string; message?: string; stack?: string };
  stack?: string;
  requestId?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
  [field: string]: unknown;
}

/** One JSON line from pino as text (a line that is not JSON is returned as it came). */
export function prettyLine(json: string, colours = false): string {
  let line: LogLine;
  try {
    line = JSON.parse(json) as LogLine;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const paint = (code: string, text: string) => (colours ? `\x1b[${code}m${text}\x1b[0m` : text);
  const time = new Date(line.time ?? Date.now()).toISOString().slice(11, 23);
  const level = paint(COLOURS[line.level ?? 30] ?? '0', (LEVELS[line.level ?? 30] ?? String(line.level)).padEnd(5));
  const context = line.context ? `${paint('36', `[${line.context}]`)} ` : '';
  const extras = { ...line };
  let text = line.msg ?? '';
  if (line.req && line.res) {
    // A request line: what was asked, the answer, how long it took.
    text = `${line.req.method} ${line.req.url} ${line.res.statusCode} ${line.responseTime} ms`;
    for (const key of ['req', 'res', 'responseTime', 'requestId']) delete extras[key];
    if (line.msg !== 'request completed') text = `${text} (${line.msg})`;
  }
  const fields = Object.entries(extras)
    .filter(([key, value]) => !SHOWN.has(key) && value !== undefined)
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  const detail = fields.length > 0 ? ` ${paint('90', fields.join(' '))}` : '';
  const stack = line.err ? (line.err.stack ?? `${line.err.type ?? 'Error'}: ${line.err.message}`) : line.stack;
  const below = stack
    ? stack
        .split('\n')
        .map((l) => `\n  ${l}`)
        .join('')
    : '';
  return `${paint('90', time)} ${level} ${context}${text}${detail}${below}\n`;
}

/** A pino destination that writes each line, made readable, to `output` (in colour on a terminal). */
export function prettyDestination(output: NodeJS.WriteStream = process.stdout): { write(line: string): void } {
  const colours = output.isTTY === true;
  return { write: (line) => void output.write(prettyLine(line, colours)) };
}
