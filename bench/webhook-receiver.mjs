// A local webhook receiver for bench/webhooks: answers 200 at once and reports, on SIGTERM, when each
// webhook-id arrived (ms since epoch) as JSON on stdout.
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
  if (m === 'report') process.send?.({ arrivals });
  if (m === 'reset') arrivals.length = 0;
});
