/**
 * The reverse proxies whose X-Forwarded-For is believed: addresses, CIDR ranges and host
 * names (a compose service name such as `nginx`). Host names are resolved before the app
 * listens and again on a timer (a restarted proxy container gets a new address); a peer
 * matches when it equals one of their addresses or lies in a range.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import type { FastifyInstance } from 'fastify';

const HOST_NAME =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

type Entry = { kind: 'address' | 'range' | 'name'; text: string };

/** Classifies one TRUSTED_PROXIES entry, or says what is wrong with it. */
export function parseProxyEntry(text: string): Entry | { error: string } {
  const slash = text.indexOf('/');
  if (slash !== -1) {
    const base = text.slice(0, slash);
    const bits = Number(text.slice(slash + 1));
    const family = isIP(base);
    const max = family === 4 ? 32 : 128;
    if (family === 0 || !/^\d{1,3}$/.test(text.slice(slash + 1)) || bits > max)
      return { error: `"${text}" is not a CIDR range such as 10.0.0.0/8 or fd00::/8` };
    return { kind: 'range', text };
  }
  if (isIP(text) !== 0) return { kind: 'address', text };
  if (HOST_NAME.test(text)) return { kind: 'name', text };
  return { error: `"${text}" is neither an address, a CIDR range nor a host name` };
}

function familyOf(address: string): 'ipv4' | 'ipv6' {
  return isIP(address) === 6 ? 'ipv6' : 'ipv4';
}

/** Every address of a host name (dns.lookup's `all` form). */
export type ProxyLookup = (name: string) => Promise<readonly { address: string }[]>;

const systemLookup: ProxyLookup = (name) => dnsLookup(name, { all: true });

/** How often host names are resolved again (default). */
export const PROXY_REFRESH_MS = 30_000;

export class TrustedProxies {
  private readonly fixed = new BlockList();
  private readonly names: string[] = [];
  /** The names' addresses, replaced whole by each resolution. */
  private resolved = new BlockList();
  private timer: NodeJS.Timeout | undefined;
  readonly empty: boolean;

  constructor(
    entries: readonly string[],
    private readonly lookup: ProxyLookup = systemLookup,
  ) {
    for (const text of entries) {
      const entry = parseProxyEntry(text);
      if ('error' in entry) throw new Error(`TRUSTED_PROXIES: ${entry.error}`);
      if (entry.kind === 'name') this.names.push(entry.text);
      else if (entry.kind === 'address') addAddress(this.fixed, entry.text);
      else {
        const [base = '', bits = '0'] = entry.text.split('/');
        this.fixed.addSubnet(base, Number(bits), familyOf(base));
      }
    }
    this.empty = entries.length === 0;
  }

  /** Resolves the host names (every address of each); a name that does not resolve is an error. */
  async resolve(): Promise<void> {
    const next = new BlockList();
    for (const name of this.names) {
      let found;
      try {
        found = await this.lookup(name);
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        throw new Error(`TRUSTED_PROXIES: the host name "${name}" does not resolve (${reason})`, {
          cause: err,
        });
      }
      for (const { address } of found) addAddress(next, address);
    }
    this.resolved = next;
  }

  /**
   * Resolves the names again every `everyMs`; a failed round keeps the previous addresses
   * (a DNS hiccup must not put every client behind the proxy in one bucket) and is reported.
   */
  refreshEvery(everyMs: number, onRound: (err?: Error) => void = () => {}): void {
    this.stop();
    if (this.names.length === 0) return;
    const round = (): void => {
      this.resolve().then(
        () => onRound(),
        (err: unknown) => onRound(err instanceof Error ? err : new Error(String(err))),
      );
    };
    this.timer = setInterval(round, everyMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  has(address: string): boolean {
    const family = isIP(address);
    if (family === 0) return false;
    const type = family === 6 ? 'ipv6' : 'ipv4';
    return this.fixed.check(address, type) || this.resolved.check(address, type);
  }
}

function addAddress(list: BlockList, address: string): void {
  list.addAddress(address, familyOf(address));
  // A v4 proxy may appear as ::ffff:a.b.c.d on a dual-stack socket, and the reverse.
  if (isIP(address) === 4) list.addAddress(`::ffff:${address}`, 'ipv6');
}

/**
 * The app's trusted proxies: names resolved before it listens (start-up fails when one does
 * not resolve), again every `refreshMs` while it runs, the timer stopped when it closes.
 */
export function resolveWithApp(
  app: FastifyInstance,
  proxies: TrustedProxies,
  refreshMs = PROXY_REFRESH_MS,
): void {
  app.addHook('onReady', async () => {
    await proxies.resolve();
    proxies.refreshEvery(refreshMs, (err) => {
      if (err)
        app.log.warn({ err }, 'trusted proxies: resolving again failed; keeping the previous addresses');
    });
  });
  app.addHook('onClose', (_instance, done) => {
    proxies.stop();
    done();
  });
}
