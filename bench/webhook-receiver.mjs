// A local webhook receiver for the benches: answers 200 at once. Over IPC, 'count' answers how many
// deliveries arrived (cheap, for polling) and 'report' when each webhook-id arrived (ms since epoch).
import http from 'node:http';

const arrivals = [];
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    arrivals.push([req.headers['webhook-id'], Date.now()]);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
});
server.keepAliveTimeout = 30_000;
server.listen(Number(process.argv[2]), '127.0.0.1', () => process.send?.('ready'));
process.on('message', (m) => {
  if (m === 'count') process.send?.({ count: arrivals.length });
  if (m === 'report') process.send?.({ arrivals });
  if (m === 'reset') arrivals.length = 0;
});
