/**
 * The Ed25519 signing keys: from RECEIPT_SIGNING_KEY (a private JWK) or a key file under
 * DATA_DIR, generated there on first start outside production. The file also keeps retired
 * public keys, published so results signed before a rotation still verify.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';
import { ConfigError } from '../../core/env.js';
import type { PublishedKey, SigningKey } from '../report-card/signing.js';

interface KeyFile {
  active: JWK;
  retired?: JWK[];
}

export interface KeySet {
  active: SigningKey;
  published: PublishedKey[];
}

async function fromPrivate(privateJwk: JWK): Promise<SigningKey> {
  if (privateJwk.kty !== 'OKP' || privateJwk.crv !== 'Ed25519' || typeof privateJwk.d !== 'string')
    throw new ConfigError([
      'the receipt signing key must be an Ed25519 private JWK (kty OKP, crv Ed25519, d)',
    ]);
  const { d: _d, ...publicPart } = privateJwk;
  const kid = privateJwk.kid ?? (await calculateJwkThumbprint(publicPart));
  return {
    kid,
    privateJwk: { ...privateJwk, kid },
    publicJwk: { ...publicPart, kid, alg: 'EdDSA', use: 'sig' },
  };
}

export async function loadSigningKeys(options: {
  dataDir: string;
  envKey: string | undefined;
  production: boolean;
}): Promise<KeySet> {
  const file = path.join(options.dataDir, 'receipt-signing-keys.json');
  let stored: KeyFile | undefined;
  try {
    stored = JSON.parse(await readFile(file, 'utf8')) as KeyFile;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new ConfigError([`${file}: ${(err as Error).message}`]);
  }
  let active: SigningKey;
  if (options.envKey) {
    let jwk: JWK;
    try {
      jwk = JSON.parse(options.envKey) as JWK;
    } catch {
      throw new ConfigError(['RECEIPT_SIGNING_KEY: must be an Ed25519 private key as a JWK (JSON)']);
    }
    active = await fromPrivate(jwk);
  } else if (stored) {
    active = await fromPrivate(stored.active);
  } else if (options.production) {
    throw new ConfigError([
      `RECEIPT_SIGNING_KEY: required in production (an Ed25519 private JWK), or a key file at ${file}`,
    ]);
  } else {
    const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
    active = await fromPrivate(await exportJWK(privateKey));
    stored = { active: active.privateJwk, retired: [] };
    await mkdir(options.dataDir, { recursive: true });
    await writeFile(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
  }
  const retired = (stored?.retired ?? [])
    .filter((k) => k.kid !== active.kid)
    .map((k): PublishedKey => {
      const { d: _d, ...pub } = k;
      return { ...pub, kid: String(k.kid), alg: 'EdDSA', use: 'sig', status: 'retired' };
    });
  return { active, published: [{ ...active.publicJwk, kid: active.kid, status: 'active' }, ...retired] };
}
