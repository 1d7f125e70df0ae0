// A webhook receiver in its own process (so it does not share a core with the load generator):
// verifies every delivery's signature with the service's own code and records when it arrived.
// Driven over IPC by bench/run.mjs: { secrets } sets the secrets to accept, 'count' asks how many
// distinct events arrived since the last 'reset' (cheap, for polling), 'stats' for all it recorded.
import { createServer } from 'node:http';
import { verify } from '../dist/webhooks/signature.js';

let secrets = [];
let state;
// Across resets too: every event seen since start, to prove nothing was lost or delivered twice.
const everIds = new Set();
let everDuplicates = 0;
const reset = () => (state = { arrivals: [], firstAttemptLatencies: [], ids: new Set(), duplicates: 0, invalid: 0 });
reset();

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const now = Date.now();
    const raw = Buffer.concat(chunks);
    const header = req.headers['x-service-signature'];
    if (
      !secrets.some((s) => {
        try {
          return verify(raw, header, s) > 0;
        } catch {
          return false;
        }
      })
    ) {
      state.invalid++;
      res.writeHead(400).end();
      return;
    }
    const event = JSON.parse(raw);
    state.arrivals.push(now);
    if (state.ids.has(event.id)) state.duplicates++;
    state.ids.add(event.id);
    if (everIds.has(event.id)) everDuplicates++;
    everIds.add(event.id);
    if (req.headers['x-service-delivery-attempt'] === '1') state.firstAttemptLatencies.push(now - Date.parse(event.createdAt));
    res.writeHead(200).end();
  });
});

process.on('message', (msg) => {
  if (msg === 'reset') reset();
  else if (msg === 'count') process.send({ unique: state.ids.size });
  else if (msg === 'stats') {
    const { arrivals, firstAttemptLatencies, ids, duplicates, invalid } = state;
    process.send({ arrivals, firstAttemptLatencies, unique: ids.size, duplicates, invalid, everUnique: everIds.size, everDuplicates });
  } else if (msg?.secrets) secrets = msg.secrets;
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
