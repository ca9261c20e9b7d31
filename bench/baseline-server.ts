// The ceiling: a bare node:http server answering a fixed 301 from a Map.
import http from 'node:http';

const targets = new Map([['/abc', 'https://www.example.com/blog/2024/06/0-how-to-shorten-links']]);
const port = Number(process.argv[2] ?? 0);

const server = http.createServer((req, res) => {
  const location = targets.get(req.url ?? '');
  if (location === undefined) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(301, { location, 'cache-control': 'private, max-age=90' }).end();
});
server.listen(port, '127.0.0.1');
process.once('SIGTERM', () => server.close(() => process.exit(0)));
