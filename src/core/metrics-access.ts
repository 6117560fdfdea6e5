/**
 * Who may read /metrics: the configured scrapers only (METRICS_SCRAPERS: addresses, CIDR ranges,
 * host names; loopback by default), judged by the socket peer. A request that came through a
 * proxy (it carries Forwarded or X-Forwarded-For) is never a scraper: the edge does not pass
 * /metrics, and a peer that is the proxy itself must not lend its address to a client.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { parseProxyEntry } from './trusted-proxies.js';
import { metricsForbidden } from './errors/http.js';

export const DEFAULT_METRICS_SCRAPERS = '127.0.0.0/8,::1';

/** The METRICS_SCRAPERS setting, the same in every service's schema. */
export const METRICS_SCRAPERS_SETTING = Type.String({
  default: DEFAULT_METRICS_SCRAPERS,
  description:
    'comma-separated addresses, CIDR ranges or host names (resolved at start-up) allowed to read GET /metrics; loopback by default',
});

/** Splits and checks a METRICS_SCRAPERS value; the problems name each bad entry. */
export function parseScrapers(text: string): { entries: string[]; problems: string[] } {
  const entries = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const problems = entries.flatMap((entry) => {
    const parsed = parseProxyEntry(entry);
    return 'error' in parsed ? [`METRICS_SCRAPERS: ${parsed.error}`] : [];
  });
  return { entries, problems };
}

const familyOf = (address: string): 'ipv4' | 'ipv6' => (isIP(address) === 6 ? 'ipv6' : 'ipv4');

export class MetricsScrapers {
  private readonly list = new BlockList();
  private readonly names: string[] = [];

  constructor(entries: readonly string[]) {
    for (const text of entries) {
      const entry = parseProxyEntry(text);
      if ('error' in entry) throw new Error(`METRICS_SCRAPERS: ${entry.error}`);
      if (entry.kind === 'name') this.names.push(entry.text);
      else if (entry.kind === 'address') this.addAddress(entry.text);
      else {
        const [base = '', bits = '0'] = entry.text.split('/');
        this.list.addSubnet(base, Number(bits), familyOf(base));
        // A v4 peer may appear as ::ffff:a.b.c.d on a dual-stack socket.
        if (familyOf(base) === 'ipv4') this.list.addSubnet(`::ffff:${base}`, 96 + Number(bits), 'ipv6');
      }
    }
  }

  private addAddress(address: string): void {
    this.list.addAddress(address, familyOf(address));
    if (isIP(address) === 4) this.list.addAddress(`::ffff:${address}`, 'ipv6');
  }

  /** Resolves host names (a compose service such as "prometheus") once, before listening. */
  async resolve(): Promise<void> {
    for (const name of this.names) {
      let found;
      try {
        found = await lookup(name, { all: true });
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        throw new Error(`METRICS_SCRAPERS: the host name "${name}" does not resolve (${reason})`, {
          cause: err,
        });
      }
      for (const { address } of found) this.addAddress(address);
    }
  }

  /** A 403 unless the request comes straight from a configured scraper. */
  assertScraper(request: FastifyRequest): void {
    const peer = request.socket.remoteAddress ?? '';
    const proxied =
      request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined;
    if (!proxied && isIP(peer) !== 0 && this.list.check(peer, familyOf(peer))) return;
    throw metricsForbidden();
  }
}
