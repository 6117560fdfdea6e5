/** Checks a report card's Ed25519 JWS in the browser against the service's published keys. */
import { canonical } from './receipt-verify';

const b64url = (text: string): Uint8Array<ArrayBuffer> => {
  const bin = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
};

export interface PublishedKey extends JsonWebKey {
  kid?: string;
  status?: string;
}

export async function verifyJws(
  jws: string,
  kid: string,
  result: unknown,
  keys: PublishedKey[],
): Promise<{ ok: boolean; reason: string }> {
  const key = keys.find((k) => k.kid === kid);
  if (!key) return { ok: false, reason: `no published key has kid ${kid}` };
  const [header, payload, signature] = jws.split('.');
  if (!header || !payload || !signature) return { ok: false, reason: 'not a compact JWS' };
  const publicKey = await crypto.subtle.importKey(
    'jwk',
    { kty: key.kty, crv: key.crv, x: key.x },
    { name: 'Ed25519' },
    false,
    ['verify'],
  );
  const ok = await crypto.subtle.verify(
    'Ed25519',
    publicKey,
    b64url(signature),
    new TextEncoder().encode(`${header}.${payload}`),
  );
  if (!ok) return { ok: false, reason: 'the Ed25519 signature does not verify' };
  if (new TextDecoder().decode(b64url(payload)) !== canonical(result))
    return { ok: false, reason: 'the signed payload is not this result' };
  return { ok: true, reason: `signed by key ${kid} (${key.status ?? 'active'})` };
}
