// Server-sent events, both ways: parsing an upstream's stream (WHATWG "event stream" rules) and
// writing ours.

export interface SseMessage {
  event: string;
  data: string;
  id?: string;
}

/**
 * Splits a text stream into SSE messages. Handles chunks cut anywhere (even between \r and \n),
 * CRLF/CR/LF line ends, multi-line `data`, comments (`: keep-alive`) and fields without a value.
 */
export async function* parseSse(chunks: AsyncIterable<string>): AsyncGenerator<SseMessage> {
  let buffer = '';
  let data: string[] = [];
  let event = '';
  let id: string | undefined;
  let sawData = false;

  function* line(text: string): Generator<SseMessage> {
    if (text === '') {
      // A blank line dispatches the message gathered so far (if it had data).
      if (sawData) yield { event: event || 'message', data: data.join('\n'), ...(id !== undefined ? { id } : {}) };
      data = [];
      event = '';
      sawData = false;
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      data.push(value);
      sawData = true;
    } else if (field === 'event') event = value;
    else if (field === 'id') id = value;
  }

  for await (const chunk of chunks) {
    buffer += chunk;
    let start = 0;
    for (let i = 0; i < buffer.length; i++) {
      const c = buffer[i];
      if (c !== '\n' && c !== '\r') continue;
      // A \r at the very end may be the first half of \r\n: wait for the next chunk.
      if (c === '\r' && i === buffer.length - 1) break;
      yield* line(buffer.slice(start, i));
      if (c === '\r' && buffer[i + 1] === '\n') i++;
      start = i + 1;
    }
    buffer = buffer.slice(start);
  }
  if (buffer.endsWith('\r')) buffer = buffer.slice(0, -1);
  // The stream ended: a last line without its end still counts, a message without its blank line does not.
  if (buffer !== '') yield* line(buffer);
}

/** Decodes a byte stream (fetch's `response.body`) to text, keeping multi-byte characters whole. */
export async function* decodeUtf8(body: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  for await (const bytes of body) {
    const text = decoder.decode(bytes, { stream: true });
    if (text) yield text;
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}

/** One `data:` message of our own stream. JSON never holds a raw newline, so one line suffices. */
export function sseData(payload: unknown): string {
  return `data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n\n`;
}

export const SSE_DONE = 'data: [DONE]\n\n';
