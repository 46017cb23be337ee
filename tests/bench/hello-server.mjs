// The baseline: a bare node:http JSON hello-world on the port given as argv[2].
import http from 'node:http';

const body = JSON.stringify({ hello: 'world' });
http
  .createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  })
  .listen(Number(process.argv[2]), '127.0.0.1', () => process.stdout.write('ready\n'));
