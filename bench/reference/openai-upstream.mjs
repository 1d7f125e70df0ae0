// The upstream of load 12 (the AI gateway) and its reference: a bare OpenAI-compatible server on
// node:http answering POST /v1/chat/completions with a fixed five-token answer, as JSON or, with
// `stream: true`, as chat.completion.chunk events (and the usage chunk with
// stream_options.include_usage) then [DONE]. LATENCY_MS: the time a model takes (the answer, or the
// stream's first token, comes that long after the request; 0: at once). The bench drives it
// directly (the reference) and through the platform (an AI_PROVIDERS_FILE target): the ratio is
// what the gateway costs.
//   env: PORT, LATENCY_MS (default 0)
import { createServer } from 'node:http';

const LATENCY_MS = Number(process.env.LATENCY_MS ?? 0);
const later = (fn) => (LATENCY_MS > 0 ? setTimeout(fn, LATENCY_MS) : fn());

const WORDS = ['The', ' stub', ' says', ' hello', '.'];
const usage = (prompt) => ({ prompt_tokens: prompt, completion_tokens: WORDS.length, total_tokens: prompt + WORDS.length });

const server = createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
    return;
  }
  const parts = [];
  req.on('data', (d) => parts.push(d));
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(parts).toString('utf8'));
    const prompt = body.messages.reduce((n, m) => n + String(m.content).split(/\s+/).length, 0);
    const base = { id: 'chatcmpl-upstream', created: Math.floor(Date.now() / 1000), model: `${body.model}-2026` };
    if (!body.stream) {
      const answer = {
        ...base,
        object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', content: WORDS.join('') }, finish_reason: 'stop' }],
        usage: usage(prompt),
      };
      later(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer)));
      return;
    }
    const chunk = (choices, extra = {}) => `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices, ...extra })}\n\n`;
    let out = chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]);
    for (const word of WORDS) out += chunk([{ index: 0, delta: { content: word }, finish_reason: null }]);
    out += chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]);
    if (body.stream_options?.include_usage) out += chunk([], { usage: usage(prompt) });
    later(() => res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' }).end(`${out}data: [DONE]\n\n`));
  });
});

server.keepAliveTimeout = 30_000;
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.({ port: Number(process.env.PORT) }));
