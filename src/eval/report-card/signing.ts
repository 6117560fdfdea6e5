/**
 * Ed25519 signatures of report-card results: a compact JWS (alg EdDSA, with the key's `kid`)
 * whose payload is the result's canonical JSON (RFC 8785), so anyone holding the published
 * key set can check a saved result offline.
 */
import { CompactSign, compactVerify, importJWK, type JWK } from 'jose';
import { canonicalJson } from '../../core/canonical-json.js';

export interface SigningKey {
  kid: string;
  privateJwk: JWK;
  publicJwk: JWK;
}

export interface PublishedKey extends JWK {
  kid: string;
  status: 'active' | 'retired';
}

export interface Signature {
  alg: 'EdDSA';
  kid: string;
  jws: string;
}

export async function signResult(key: SigningKey, result: unknown): Promise<Signature> {
  const privateKey = await importJWK(key.privateJwk, 'EdDSA');
  const jws = await new CompactSign(new TextEncoder().encode(canonicalJson(result)))
    .setProtectedHeader({ alg: 'EdDSA', kid: key.kid, typ: 'report-card-result+jws' })
    .sign(privateKey);
  return { alg: 'EdDSA', kid: key.kid, jws };
}

/** Checks the JWS against the key set and that its payload is exactly the result's canonical JSON. */
export async function verifySignedResult(
  keys: readonly JWK[],
  result: unknown,
  signature: Signature,
): Promise<{ ok: true; kid: string } | { ok: false; reason: string }> {
  const key = keys.find((k) => k.kid === signature.kid);
  if (!key) return { ok: false, reason: `no key with kid ${signature.kid} in the key set` };
  try {
    const { payload, protectedHeader } = await compactVerify(signature.jws, await importJWK(key, 'EdDSA'));
    if (protectedHeader.kid !== signature.kid)
      return { ok: false, reason: 'the JWS header names another kid' };
    if (new TextDecoder().decode(payload) !== canonicalJson(result))
      return { ok: false, reason: 'the signed payload is not this result (it was changed)' };
    return { ok: true, kid: signature.kid };
  } catch (err) {
    return { ok: false, reason: `signature check failed: ${(err as Error).message}` };
  }
}
