import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/env.js';
import { loadMusicConfig, parseDurationSeconds } from './config.js';

describe('loadMusicConfig', () => {
  it('applies the conventions as defaults and generates dev secrets (named for a warning)', () => {
    const c = loadMusicConfig({});
    expect(c.port).toBe(8081);
    expect(c.databaseUrl).toBe('postgresql://postgres@127.0.0.1:5432/music');
    expect(c.cacheUrl).toBe('redis://127.0.0.1:6379');
    expect(c.objectStore.kind).toBe('filesystem');
    expect(c.jwt.expiresInSeconds).toBe(86400);
    expect(c.secureLink.ttlSeconds).toBe(3600);
    expect(c.bodyLimit).toBe(500 * 1024 * 1024);
    expect(c.generatedSecrets.sort()).toEqual([
      'CLIENT_KEY_SECRET',
      'IP_HASH_SALT',
      'JWT_SECRET',
      'SECURE_LINK_SECRET',
    ]);
    expect(c.jwt.secret).not.toBe(loadMusicConfig({}).jwt.secret);
    expect(Object.isFrozen(c)).toBe(true);
  });

  it('in production, names every missing secret', () => {
    try {
      loadMusicConfig({ NODE_ENV: 'production' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const message = (err as Error).message;
      for (const name of ['JWT_SECRET', 'SECURE_LINK_SECRET', 'IP_HASH_SALT', 'CLIENT_KEY_SECRET'])
        expect(message).toContain(name);
    }
  });

  it('names each bad value', () => {
    const bad = () =>
      loadMusicConfig({
        MUSIC_PORT: 'eighty',
        CACHE_URL: 'http://x',
        JWT_EXPIRES_IN: '1 day',
        LOG_LEVEL: 'loud',
        JWT_SECRET: 'short',
      });
    expect(bad).toThrow(ConfigError);
    try {
      bad();
    } catch (err) {
      for (const name of ['MUSIC_PORT', 'CACHE_URL', 'JWT_EXPIRES_IN', 'LOG_LEVEL', 'JWT_SECRET'])
        expect((err as Error).message).toContain(name);
    }
  });

  it('needs credentials with an S3 endpoint, both TLS files, and all PAYMENT_* together', () => {
    expect(() => loadMusicConfig({ OBJECT_STORE_ENDPOINT: 'http://minio:9000' })).toThrow(
      /OBJECT_STORE_ROOT_USER[\s\S]*OBJECT_STORE_ROOT_PASSWORD/,
    );
    expect(() => loadMusicConfig({ TLS_CERT_FILE: '/c.pem' })).toThrow(/TLS_KEY_FILE/);
    expect(() => loadMusicConfig({ PAYMENT_SECRET_KEY: 'sk' })).toThrow(
      /PAYMENT_PUBLISHABLE_KEY, PAYMENT_WEBHOOK_SECRET/,
    );
    const s3 = loadMusicConfig({
      OBJECT_STORE_ENDPOINT: 'http://minio:9000',
      OBJECT_STORE_ROOT_USER: 'u',
      OBJECT_STORE_ROOT_PASSWORD: 'p',
    });
    expect(s3.objectStore).toMatchObject({ kind: 's3', endpoint: 'http://minio:9000', accessKeyId: 'u' });
  });

  it('parses durations', () => {
    expect(parseDurationSeconds('90')).toBe(90);
    expect(parseDurationSeconds('90m')).toBe(5400);
    expect(parseDurationSeconds('7d')).toBe(604800);
    expect(() => parseDurationSeconds('0h')).toThrow(ConfigError);
  });
});
