/**
 * The web-standard Request handed to the SDK's Streamable HTTP transport. The route parses the
 * body itself, so the transport reads only the method, the URL and these headers, never the
 * body: one Request per distinct set of header values serves every call. Building one per POST
 * (undici's Request with its Headers, URL and AbortSignal) was about 15% of a cheap tools/call.
 */

/** The headers the transport reads; nothing else of the HTTP request reaches it. */
export const FORWARDED_HEADERS = [
  'content-type',
  'accept',
  'mcp-protocol-version',
  'mcp-session-id',
  'last-event-id',
] as const;

/** Header values are the client's: bounded, oldest dropped first, so churn costs only misses. */
const MAX_CACHED = 64;
/** Longer combined values are built per request rather than kept. */
const MAX_KEY_CHARS = 1024;

export type ForwardedValues = Readonly<Record<string, string | string[] | undefined>>;

export class TransportRequests {
  private readonly cache = new Map<string, Request>();

  /** The Request for these header values (a node request's `headers` object will do). */
  for(headers: ForwardedValues): Request {
    const values = FORWARDED_HEADERS.map((name) => {
      const value = headers[name];
      return typeof value === 'string' ? value : null;
    });
    const key = JSON.stringify(values);
    const cached = this.cache.get(key);
    if (cached) return cached;
    const forwarded = new Headers();
    values.forEach((value, i) => {
      if (value !== null) forwarded.set(FORWARDED_HEADERS[i]!, value);
    });
    const request = new Request('http://localhost/mcp', { method: 'POST', headers: forwarded });
    if (key.length <= MAX_KEY_CHARS) {
      if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(key, request);
    }
    return request;
  }

  get size(): number {
    return this.cache.size;
  }
}
