/**
 * A local HTTP server of fixed files for media sends by URL: each path answers its file with its type, a redirect
 * answers 302 to its target, anything else 404. It listens on 127.0.0.1, which a gateway reaches only with
 * SSRF_ALLOWED_HOSTS=127.0.0.1.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type ServedPath = { type: string; body: Uint8Array } | { redirect: string };

export interface FileServer {
  /** `http://127.0.0.1:<port>`. */
  base: string;
  close(): Promise<void>;
}

export async function startFileServer(paths: Record<string, ServedPath>): Promise<FileServer> {
  const server = http.createServer((req, res) => {
    const served = paths[req.url ?? ''];
    if (!served) return res.writeHead(404).end();
    if ('redirect' in served) return res.writeHead(302, { location: served.redirect }).end();
    return res.writeHead(200, { 'content-type': served.type }).end(served.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
