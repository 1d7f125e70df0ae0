import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A message the test server took: the envelope, the raw message, and its headers and bodies decoded. */
export interface ReceivedMail {
  /** MAIL FROM and RCPT TO of the SMTP session (lowercase). */
  envelope: { from: string; to: string[] };
  /** The message as sent (headers and MIME body). */
  raw: string;
  /** Header values by lowercase name (unfolded; encoded words decoded); a repeated header keeps its values joined by `, `. */
  headers: Record<string, string>;
  subject: string;
  /** The text/plain body, its transfer encoding and charset decoded. */
  text: string;
  /** The text/html body, if any, decoded the same way. */
  html?: string;
}

export const SMTP_USER = 'mailer';
export const SMTP_PASSWORD = 'smtp-test-password';

/**
 * A real SMTP server on 127.0.0.1 (smtp-server, the npm package), collecting what it is sent.
 * Plain SMTP (no STARTTLS offered) with AUTH PLAIN/LOGIN required (SMTP_USER/SMTP_PASSWORD, as
 * `url` holds them): what a service's SMTP_URL points at. `refuse` makes it answer 451 to every
 * recipient (an outage the client sees); `stop()` ends it.
 */
export class SmtpTestServer {
  readonly messages: ReceivedMail[] = [];
  /** 451 to every RCPT TO while set. */
  refuse = false;
  /** Messages nextTo() has answered already. */
  private readonly taken = new Set<ReceivedMail>();
  private readonly waiters: Array<() => void> = [];

  private constructor(
    private readonly server: SMTPServer,
    readonly port: number,
  ) {}

  /** `smtp://user:pass@127.0.0.1:port`, for SMTP_URL. */
  get url(): string {
    return `smtp://${SMTP_USER}:${SMTP_PASSWORD}@127.0.0.1:${this.port}`;
  }

  static async start(): Promise<SmtpTestServer> {
    // The server's handlers reach the instance made once it listens.
    const self: { it?: SmtpTestServer } = {};
    const server = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      authMethods: ['PLAIN', 'LOGIN'],
      logger: false,
      onAuth(auth, _session, callback) {
        if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) callback(null, { user: auth.username });
        else callback(new Error('Invalid username or password'));
      },
      onRcptTo(_address, _session, callback) {
        if (self.it?.refuse) callback(Object.assign(new Error('Mailbox unavailable (test outage)'), { responseCode: 451 }));
        else callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const from = session.envelope.mailFrom ? session.envelope.mailFrom.address.toLowerCase() : '';
          self.it!.receive({ from, to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()) }, Buffer.concat(chunks).toString('utf8'));
          callback();
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    self.it = new SmtpTestServer(server, (server.server.address() as AddressInfo).port);
    return self.it;
  }

  /** The next message to `address` that this has not answered before (waiting for it up to `timeoutMs`). */
  async nextTo(address: string, timeoutMs = 15_000): Promise<ReceivedMail> {
    const wanted = address.toLowerCase();
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find((m) => !this.taken.has(m) && m.envelope.to.includes(wanted));
      if (found) {
        this.taken.add(found);
        return found;
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no e-mail to ${address} within ${timeoutMs} ms (${this.messages.length} received in all)`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Messages to `address` received so far. */
  to(address: string): ReceivedMail[] {
    return this.messages.filter((m) => m.envelope.to.includes(address.toLowerCase()));
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private receive(envelope: ReceivedMail['envelope'], raw: string): void {
    const { headers, body } = splitMessage(raw);
    const parts = leafParts(headers, body);
    const text = parts.find((p) => p.type === 'text/plain')?.content ?? '';
    const html = parts.find((p) => p.type === 'text/html')?.content;
    this.messages.push({ envelope, raw, headers, subject: headers.subject ?? '', text, html });
    for (const wake of this.waiters.splice(0)) wake();
  }
}

/** Headers (unfolded, lowercase names, encoded words decoded) and the body after the blank line. */
function splitMessage(raw: string): { headers: Record<string, string>; body: string } {
  const end = raw.search(/\r?\n\r?\n/);
  const head = end < 0 ? raw : raw.slice(0, end);
  const body = end < 0 ? '' : raw.slice(end).replace(/^\r?\n\r?\n/, '');
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = decodeWords(line.slice(colon + 1).trim());
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  return { headers, body };
}

/** The leaf parts of a MIME entity (multiparts opened, recursively): their type and decoded content. */
function leafParts(headers: Record<string, string>, body: string): Array<{ type: string; content: string }> {
  const contentType = headers['content-type'] ?? 'text/plain';
  const type = contentType.split(';', 1)[0].trim().toLowerCase();
  if (type.startsWith('multipart/')) {
    const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
    if (!boundary) return [];
    const sections = body.split(new RegExp(`\\r?\\n?--${escapeRegExp(boundary)}(?:--)?[ \\t]*\\r?\\n?`));
    return sections
      .slice(1, -1) // before the first boundary: the preamble; after the last: the epilogue
      .flatMap((section) => {
        const part = splitMessage(section);
        return leafParts(part.headers, part.body);
      });
  }
  const charset = /charset="?([^";]+)"?/i.exec(contentType)?.[1] ?? 'utf-8';
  const encoding = (headers['content-transfer-encoding'] ?? '7bit').trim().toLowerCase();
  const bytes =
    encoding === 'base64'
      ? Buffer.from(body.replace(/\s+/g, ''), 'base64')
      : encoding === 'quoted-printable'
        ? quotedPrintable(body)
        : Buffer.from(body, 'utf8');
  return [{ type, content: new TextDecoder(charset).decode(bytes) }];
}

/** RFC 2045 quoted-printable: soft line breaks (`=` at a line's end) removed, `=XX` the byte XX. */
function quotedPrintable(body: string): Buffer {
  const joined = body.replace(/[ \t]+(?=\r?\n)/g, '').replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined[i] === '=' ? joined.slice(i + 1, i + 3) : '';
    if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i], 'utf8'));
    }
  }
  return Buffer.from(bytes);
}

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`) of a header value; whitespace between two of them goes. */
function decodeWords(value: string): string {
  return value.replace(/(\?=)\s+(?==\?)/g, '$1').replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_, charset: string, kind: string, text: string) => {
    const bytes = kind.toUpperCase() === 'B' ? Buffer.from(text, 'base64') : quotedPrintable(text.replace(/_/g, ' '));
    return new TextDecoder(charset).decode(bytes);
  });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
