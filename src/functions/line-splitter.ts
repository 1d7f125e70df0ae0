import { StringDecoder } from 'node:string_decoder';

/**
 * Lines out of an instance's stdout or stderr, each at most `max` characters: a longer one is cut there (marked
 * with …) and the rest of it dropped, so what a deployment prints without newlines cannot grow the platform's
 * memory.
 */
export class LineSplitter {
  private readonly decoder = new StringDecoder('utf8');
  private pending = '';
  private skipping = false;

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly max = 16 * 1024,
  ) {}

  push(chunk: Buffer | string): void {
    let text = typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    for (;;) {
      const newline = text.indexOf('\n');
      if (newline < 0) break;
      const line = text.slice(0, newline);
      text = text.slice(newline + 1);
      if (this.skipping) this.skipping = false;
      else this.emit(this.pending + line);
      this.pending = '';
    }
    if (this.skipping) return;
    this.pending += text;
    if (this.pending.length > this.max) {
      this.emit(this.pending);
      this.pending = '';
      this.skipping = true;
    }
  }

  end(): void {
    const rest = this.pending + this.decoder.end();
    if (rest && !this.skipping) this.emit(rest);
    this.pending = '';
    this.skipping = false;
  }

  private emit(line: string): void {
    const text = line.endsWith('\r') ? line.slice(0, -1) : line;
    this.onLine(text.length > this.max ? `${text.slice(0, this.max)}…` : text);
  }
}
