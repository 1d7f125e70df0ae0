import { decodeUtf8, parseSse, SseMessage, sseData, SSE_DONE } from './sse.js';

async function* from<T>(items: T[]): AsyncGenerator<T> {
  for (const item of items) yield item;
}

async function collect(chunks: string[]): Promise<SseMessage[]> {
  const out: SseMessage[] = [];
  for await (const m of parseSse(from(chunks))) out.push(m);
  return out;
}

describe('parseSse', () => {
  const stream = 'data: {"a":1}\n\n: keep-alive comment\n\nevent: usage\ndata: line one\ndata: line two\nid: 7\n\ndata: [DONE]\n\n';

  it('reads messages, events, ids and multi-line data, and skips comments', async () => {
    expect(await collect([stream])).toEqual([
      { event: 'message', data: '{"a":1}' },
      { event: 'usage', data: 'line one\nline two', id: '7' },
      { event: 'message', data: '[DONE]', id: '7' },
    ]);
  });

  it('gives the same messages however the stream is cut, one character at a time included', async () => {
    const whole = await collect([stream]);
    expect(await collect(stream.split(''))).toEqual(whole);
    expect(await collect([stream.slice(0, 5), stream.slice(5, 23), stream.slice(23)])).toEqual(whole);
  });

  it('accepts CRLF and CR line ends, even with \\r and \\n in different chunks', async () => {
    expect(await collect(['data: x\r', '\n\r', '\ndata: y\r\rdata:z\n\n'])).toEqual([
      { event: 'message', data: 'x' },
      { event: 'message', data: 'y' },
      { event: 'message', data: 'z' },
    ]);
  });

  it('keeps a value without its optional space, and a field without a value', async () => {
    expect(await collect(['data:no-space\n\ndata\n\n'])).toEqual([
      { event: 'message', data: 'no-space' },
      { event: 'message', data: '' },
    ]);
  });

  it('drops a message that never got its blank line, and ignores blank lines without data', async () => {
    expect(await collect(['\n\n\ndata: complete\n\ndata: cut off'])).toEqual([{ event: 'message', data: 'complete' }]);
  });
});

describe('decodeUtf8', () => {
  it('keeps a multi-byte character split between two chunks whole', async () => {
    const bytes = new TextEncoder().encode('data: "héllo ✓"\n\n');
    const cut = bytes.indexOf(0xa9); // inside é
    let text = '';
    for await (const t of decodeUtf8(from([bytes.slice(0, cut), bytes.slice(cut)]))) text += t;
    expect(text).toBe('data: "héllo ✓"\n\n');
  });
});

describe('sseData', () => {
  it('writes one JSON data line, with newlines in text escaped', () => {
    expect(sseData({ text: 'a\nb' })).toBe('data: {"text":"a\\nb"}\n\n');
    expect(SSE_DONE).toBe('data: [DONE]\n\n');
  });
});
