// The load generator's HTTP client: one kept-alive socket per client, one request at a time, the request written as
// one buffer and the answer read only as far as its status and its end (Content-Length or chunked). It exists because
// the load client shares the machine's two cores with the gateway it measures: node:http spent 0.36 ms of CPU per
// request in the send benchmark (fetch three times that), CPU the gateway then lacks; this spends a fraction of it.
// Anything it cannot read (another framing, a closed socket) fails the request loudly rather than guessing.
import net from 'node:net';

const CRLF2 = Buffer.from('\r\n\r\n');

/** Where a complete answer ends in `buf` (its status too), or null while more bytes are needed. */
function parseAnswer(buf) {
  const headEnd = buf.indexOf(CRLF2);
  if (headEnd < 0) return null;
  const head = buf.toString('latin1', 0, headEnd);
  const status = Number(head.slice(9, 12));
  const bodyStart = headEnd + 4;
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  if (length) {
    const end = bodyStart + Number(length[1]);
    return buf.length >= end ? { status, end } : null;
  }
  if (!/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
    throw new Error(`an answer without Content-Length or chunked framing: ${head.split('\r\n')[0]}`);
  }
  let at = bodyStart;
  for (;;) {
    const lineEnd = buf.indexOf('\r\n', at, 'latin1');
    if (lineEnd < 0) return null;
    const size = Number.parseInt(buf.toString('latin1', at, lineEnd), 16);
    if (!Number.isInteger(size) || size < 0) throw new Error('a chunk without a size');
    const next = lineEnd + 2 + size + 2;
    if (buf.length < next) return null;
    if (size === 0) return { status, end: next };
    at = next;
  }
}

/** One client: `request` answers the status of one request; requests on one client must not overlap. */
export async function rawHttpClient(url) {
  const { hostname, port } = new URL(url);
  const socket = net.connect({ host: hostname, port: Number(port), noDelay: true });
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let buf = Buffer.alloc(0);
  let waiting = null;
  // A client that failed stays failed: every later request hears why.
  let broken = null;
  const fail = (error) => {
    broken ??= error;
    const w = waiting;
    waiting = null;
    w?.reject(error);
  };
  socket.on('data', (chunk) => {
    buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);
    if (!waiting) return fail(new Error('bytes with no request waiting'));
    let answer;
    try {
      answer = parseAnswer(buf);
    } catch (error) {
      return fail(error);
    }
    if (!answer) return;
    buf = buf.subarray(answer.end);
    const w = waiting;
    waiting = null;
    w.resolve(answer.status);
  });
  socket.on('error', fail);
  socket.on('close', () => fail(new Error('the server closed the connection')));
  const host = `${hostname}:${port}`;
  return {
    /** Sends one request; `headers` is an object of lower-case names, `body` a string or undefined. */
    request(method, path, headers, body) {
      if (broken) return Promise.reject(broken);
      if (waiting) return Promise.reject(new Error('a request is already in flight on this client'));
      const payload = body === undefined ? null : Buffer.from(body);
      let head = `${method} ${path} HTTP/1.1\r\nhost: ${host}\r\n`;
      for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
      head += `content-length: ${payload ? payload.length : 0}\r\n\r\n`;
      return new Promise((resolve, reject) => {
        waiting = { resolve, reject };
        socket.write(payload ? Buffer.concat([Buffer.from(head, 'latin1'), payload]) : head);
      });
    },
    close() {
      broken ??= new Error('closed');
      socket.destroy();
    },
  };
}
