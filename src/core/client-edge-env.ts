/**
 * The client-facing settings both services read under the same name: the rate limiters' switch
 * and the reverse proxies whose X-Forwarded-For is believed (core/trusted-proxies.ts).
 */
import { Type } from 'typebox';
import { parseProxyEntry } from './trusted-proxies.js';

export const ClientEdgeEnv = {
  RATE_LIMITS: Type.Union([Type.Literal('on'), Type.Literal('off')], {
    default: 'on',
    description: 'on or off',
  }),
  TRUSTED_PROXIES: Type.String({
    default: '',
    description:
      'comma-separated reverse proxies whose X-Forwarded-For is believed: addresses, CIDR ranges, host names (resolved at start-up and every 30 s)',
  }),
};

/** TRUSTED_PROXIES as its entries, and a line for each entry that is none of the three kinds. */
export function trustedProxiesSetting(text: string): { entries: string[]; problems: string[] } {
  const entries = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const problems = entries.flatMap((entry) => {
    const parsed = parseProxyEntry(entry);
    return 'error' in parsed ? [`TRUSTED_PROXIES: ${parsed.error}`] : [];
  });
  return { entries, problems };
}
