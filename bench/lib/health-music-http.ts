/** For the music rows of bench/health-under-load.ts: one request read to its end, its status. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

interface Call {
  method?: string;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a Buffer or string as it is. */
  body?: unknown;
}

export async function call(url: string, c: Call = {}): Promise<Response & { bytes: Buffer }> {
  const json = c.body !== undefined && !Buffer.isBuffer(c.body) && typeof c.body !== 'string';
  const res = await fetch(url, {
    method: c.method ?? 'GET',
    headers: { ...(json ? { 'content-type': 'application/json' } : {}), ...c.headers },
    body: json ? JSON.stringify(c.body) : (c.body as RequestInit['body']),
  });
  return Object.assign(res, { bytes: Buffer.from(await res.arrayBuffer()) });
}

/** A row's send: the request, its status. */
export const send =
  (url: string | (() => string), c: Call | (() => Call) = {}) =>
  async (): Promise<number> =>
    (await call(typeof url === 'string' ? url : url(), typeof c === 'function' ? c() : c)).status;

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Runs `fn` one call at a time however many drivers ask (rows whose call spends its own credential). */
export function serialised(fn: () => Promise<number>): () => Promise<number> {
  let chain: Promise<unknown> = Promise.resolve();
  return () => {
    const next = chain.then(fn);
    chain = next.catch(() => undefined);
    return next;
  };
}

/**
 * A PUT of a file by curl: a 100 MiB body written by fetch stalls the sending process's own
 * event loop, which is the poller's, and would be counted against the service.
 */
export async function curlPut(url: string, file: string, headers: Record<string, string>): Promise<number> {
  const { stdout } = await promisify(execFile)('curl', [
    ...['-s', '-o', '/dev/null', '-w', '%{http_code}', '-X', 'PUT', '--data-binary', `@${file}`],
    ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]),
    url,
  ]);
  return Number(stdout);
}
