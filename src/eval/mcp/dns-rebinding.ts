/**
 * DNS-rebinding protection for /mcp (the MCP specification requires servers to validate
 * Origin): the Host must name this service (EVAL_PUBLIC_URL's host, any port) and an Origin, when a browser
 * sends one, must be an http(s) origin on that name. Loopback names are accepted too when the
 * peer itself is on loopback (a local client or browser; a rebound name is never a loopback name).
 */
import { normaliseAddress } from '../../core/client-address.js';

const LOOPBACK_NAMES = new Set(['localhost', '[::1]']);

/** The host name of a Host header or URL authority (no port, lower case); undefined when malformed. */
function hostNameOf(authority: string): string | undefined {
  if (authority === '' || /[\s/\\?#@]/.test(authority)) return undefined;
  try {
    return new URL(`http://${authority}`).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

function isLoopbackName(name: string): boolean {
  return LOOPBACK_NAMES.has(name) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

export function isLoopbackPeer(address: string | undefined): boolean {
  const peer = normaliseAddress(address ?? '');
  return peer === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(peer);
}

export class McpHostCheck {
  private readonly domain: string;

  constructor(domain: string) {
    this.domain = domain.toLowerCase();
  }

  private allowed(name: string | undefined, loopbackPeer: boolean): boolean {
    return name !== undefined && (name === this.domain || (loopbackPeer && isLoopbackName(name)));
  }

  /** Why the request is refused (a message for a JSON-RPC error), or undefined when it may proceed. */
  refusal(
    host: string | undefined,
    origin: string | undefined,
    peer: string | undefined,
  ): string | undefined {
    const loopbackPeer = isLoopbackPeer(peer);
    if (!this.allowed(hostNameOf(host ?? ''), loopbackPeer)) {
      return `Forbidden: invalid Host header ${JSON.stringify(host ?? '')}; /mcp answers requests addressed to ${this.domain} (the host of EVAL_PUBLIC_URL).`;
    }
    if (origin === undefined) return undefined;
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    const ok =
      parsed !== undefined &&
      (parsed.protocol === 'https:' || parsed.protocol === 'http:') &&
      parsed.origin === origin.toLowerCase() &&
      this.allowed(parsed.hostname.toLowerCase(), loopbackPeer);
    if (!ok) {
      return `Forbidden: invalid Origin header ${JSON.stringify(origin)}; /mcp accepts browser requests only from pages of ${this.domain}.`;
    }
    return undefined;
  }
}
