import { connect, Socket } from 'node:net';

export interface RawAnswer {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

/**
 * One HTTP/1.1 connection written byte for byte, for requests no client library would send (malformed
 * request lines, conflicting lengths, a body held back half-way) and for replaying a curl command exactly.
 */
export class RawConnection {
  private readonly socket: Socket;
  private received = Buffer.alloc(0);
  private readonly answered: Promise<RawAnswer>;

  constructor(baseUrl: string) {
    const { hostname, port } = new URL(baseUrl);
    this.socket = connect(Number(port), hostname);
    this.answered = new Promise((resolve, reject) => {
      const settle = () => {
        const answer = parseAnswer(this.received);
        if (answer) {
          resolve(answer);
          this.socket.destroy();
        }
      };
      this.socket.on('data', (chunk: Buffer) => {
        this.received = Buffer.concat([this.received, chunk]);
        settle();
      });
      // The server may close first (client errors): whatever arrived is the answer.
      this.socket.on('close', () => (parseAnswer(this.received) ? settle() : reject(new Error(`connection closed after ${this.received.length} bytes`))));
      this.socket.on('error', () => undefined);
    });
  }

  write(bytes: string | Buffer): Promise<void> {
    return new Promise((resolve, reject) => this.socket.write(bytes, (err) => (err ? reject(err) : resolve())));
  }

  /** The first complete answer (headers and a body as long as its Content-Length). */
  answer(): Promise<RawAnswer> {
    return this.answered;
  }
}

/** Sends these bytes on a new connection; resolves with the answer. */
export async function rawRequest(baseUrl: string, bytes: string | Buffer): Promise<RawAnswer> {
  const connection = new RawConnection(baseUrl);
  await connection.write(bytes);
  return connection.answer();
}

function parseAnswer(received: Buffer): RawAnswer | undefined {
  const end = received.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine, ...lines] = received.subarray(0, end).toString('latin1').split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => {
      const at = line.indexOf(':');
      return [line.slice(0, at).trim().toLowerCase(), line.slice(at + 1).trim()];
    }),
  );
  const body = received.subarray(end + 4);
  const length = Number(headers['content-length'] ?? 0);
  if (body.length < length) return undefined;
  return { status: Number(statusLine.split(' ')[1]), headers, body: body.subarray(0, length).toString('utf8') };
}
