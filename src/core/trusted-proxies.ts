/**
 * The reverse proxies whose X-Forwarded-For is believed: addresses, CIDR ranges and host
 * names (a compose service name such as `nginx`). Host names are resolved once at start-up
 * (`resolve()`); a peer matches when it equals one of their addresses or lies in a range.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

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

export class TrustedProxies {
  private readonly list = new BlockList();
  private readonly names: string[] = [];
  readonly empty: boolean;

  constructor(entries: readonly string[]) {
    for (const text of entries) {
      const entry = parseProxyEntry(text);
      if ('error' in entry) throw new Error(`TRUSTED_PROXIES: ${entry.error}`);
      if (entry.kind === 'name') this.names.push(entry.text);
      else if (entry.kind === 'address') this.addAddress(entry.text);
      else {
        const [base = '', bits = '0'] = entry.text.split('/');
        this.list.addSubnet(base, Number(bits), familyOf(base));
      }
    }
    this.empty = entries.length === 0;
  }

  private addAddress(address: string): void {
    this.list.addAddress(address, familyOf(address));
    // A v4 proxy may appear as ::ffff:a.b.c.d on a dual-stack socket, and the reverse.
    if (isIP(address) === 4) this.list.addAddress(`::ffff:${address}`, 'ipv6');
  }

  /** Resolves the host names (every address of each); a name that does not resolve is an error. */
  async resolve(): Promise<void> {
    for (const name of this.names) {
      let found;
      try {
        found = await lookup(name, { all: true });
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        throw new Error(`TRUSTED_PROXIES: the host name "${name}" does not resolve (${reason})`, {
          cause: err,
        });
      }
      for (const { address } of found) this.addAddress(address);
    }
  }

  has(address: string): boolean {
    if (isIP(address) === 0) return false;
    return this.list.check(address, familyOf(address));
  }
}
