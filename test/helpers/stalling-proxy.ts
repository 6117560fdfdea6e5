/**
 * A TCP proxy in front of the real Redis that stops answering once a client sends bytes
 * containing a marker (e.g. one queue's key prefix): Redis hanging in the middle of a request,
 * for the one app pointed at the proxy, while the shared server keeps serving everyone else.
 */
import { createConnection, createServer, type Socket } from 'node:net';

export interface StallingProxy {
  /** redis://127.0.0.1:<port>, to give the app as CACHE_URL. */
  url: string;
  /** From the first chunk a client sends that contains `marker` on, nothing is forwarded. */
  stallOn(marker: string): void;
  /** Whether the marker was seen (the stall started). */
  stalled(): boolean;
  close(): Promise<void>;
}

export async function startStallingProxy(target: string): Promise<StallingProxy> {
  const upstream = new URL(target);
  const sockets = new Set<Socket>();
  let marker: Buffer | undefined;
  let stalled = false;
  const server = createServer((client) => {
    const redis = createConnection({ host: upstream.hostname, port: Number(upstream.port || 6379) });
    for (const s of [client, redis]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => {
        client.destroy();
        redis.destroy();
      });
    }
    client.on('data', (chunk: Buffer) => {
      if (marker && chunk.includes(marker)) stalled = true;
      if (!stalled) redis.write(chunk);
    });
    redis.on('data', (chunk: Buffer) => {
      if (!stalled) client.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `redis://127.0.0.1:${port}`,
    stallOn: (m) => {
      marker = Buffer.from(m);
    },
    stalled: () => stalled,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
