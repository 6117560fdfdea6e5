/** System and library scanning: ping, licence, the OpenSubsonic extensions, tokenInfo, scan status. */
import { tokenInfoNeedsApiKey } from '../errors.js';
import type { Payload } from '../response.js';
import { viewerOf, type Call, type EndpointDeps } from './call.js';

export const EXTENSIONS = [
  { name: 'formPost', versions: [1] },
  { name: 'apiKeyAuthentication', versions: [1] },
  { name: 'transcodeOffset', versions: [1] },
  { name: 'songLyrics', versions: [1] },
  { name: 'indexBasedQueue', versions: [1] },
];

export function systemEndpoints(d: EndpointDeps) {
  /** Uploads are the library: a "scan" is the versions still being processed. */
  const scanStatus = async (c: Call): Promise<Payload> => {
    const { pending, ready } = await d.library.scanState(viewerOf(c));
    return { scanStatus: { scanning: pending > 0, count: ready } };
  };
  return {
    ping: (): Payload => ({}),
    getLicense: (): Payload => ({ license: { valid: true } }),
    getOpenSubsonicExtensions: (): Payload => ({ openSubsonicExtensions: EXTENSIONS }),
    tokenInfo: (c: Call): Payload => {
      if (!c.viaApiKey) throw tokenInfoNeedsApiKey();
      return { tokenInfo: { username: c.user.handle } };
    },
    getScanStatus: scanStatus,
    startScan: scanStatus,
  };
}
