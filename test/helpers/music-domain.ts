/** Test data for the music domain tests: accounts, generated audio, uploads through the API. */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';

const run = promisify(execFile);
export const PASSWORD = 'a long enough passphrase';
export const MiB = 1024 * 1024;

export interface TestUser {
  id: string;
  handle: string;
  token: string;
  headers: { authorization: string };
}

export async function signupUser(app: FastifyInstance, prefix = 'u'): Promise<TestUser> {
  const handle = `${prefix}_${randomBytes(5).toString('hex')}`;
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/signup',
    payload: { handle, email: `${handle}@example.org`, password: PASSWORD },
  });
  expect(res.statusCode, res.body).toBe(201);
  const body = res.json();
  return { id: body.user.id, handle, token: body.token, headers: { authorization: `Bearer ${body.token}` } };
}

/** An address of its own under `prefix` (e.g. `10.1`): calls spread so no per-address limit is met. */
export function spreadAddress(prefix: string): string {
  return `${prefix}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
}

/**
 * `call(method, url, who?, payload?)` on the app `app()` gives (made in a beforeAll), as `who`
 * when given; with `prefix`, each call from an address of its own (the file is not about limits).
 */
export function apiCaller(app: () => FastifyInstance, prefix?: string) {
  return (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, who?: TestUser, payload?: unknown) =>
    app().inject({
      method,
      url,
      ...(prefix ? { remoteAddress: spreadAddress(prefix) } : {}),
      ...(who ? { headers: who.headers } : {}),
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
}

export const TEST_TAGS = {
  TITLE: 'Noise Song',
  ARTIST: 'The Testers',
  ALBUMARTIST: 'Various Testers',
  ALBUM: 'Static',
  GENRE: 'Noise',
  TRACKNUMBER: '3/12',
  DISCNUMBER: '2',
  DATE: '2021-05-04',
  MUSICBRAINZ_TRACKID: '6a8c5c6e-0b0e-4b0b-9c4e-2f1e5d8f9a01',
  MUSICBRAINZ_ALBUMID: '1b2c3d4e-0000-4000-8000-000000000001',
  MUSICBRAINZ_ARTISTID: '2b2c3d4e-0000-4000-8000-000000000002',
};

/** A 30-second tagged FLAC of white noise from ffmpeg's lavfi (noise does not compress: ~16 MB). */
export async function makeTestFlac(dir: string, seconds = 30, rate = 192000): Promise<Buffer> {
  const file = join(dir, `noise-${seconds}-${rate}.flac`);
  const metadata = Object.entries(TEST_TAGS).flatMap(([k, v]) => ['-metadata', `${k}=${v}`]);
  await run('ffmpeg', [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `anoisesrc=d=${seconds}:c=white:r=${rate}:a=1`],
    ...['-ac', '2', '-sample_fmt', 's32', '-c:a', 'flac', ...metadata, file],
  ]);
  return readFile(file);
}

export const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

export interface InitAnswer {
  upload_id: string;
  asset_id: string;
  part_size: number;
  part_count: number;
  transport: 'direct' | 'api';
  parts: { part_number: number; url: string }[];
}

export function slice(data: Buffer, partSize: number, n: number): Buffer {
  return data.subarray((n - 1) * partSize, Math.min(data.length, n * partSize));
}

export async function initUpload(
  app: FastifyInstance,
  user: TestUser,
  data: Buffer,
  extra: Record<string, unknown> = {},
): Promise<InitAnswer> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/upload/multipart/init',
    headers: user.headers,
    payload: { filename: 'song.flac', content_type: 'audio/flac', size: data.length, ...extra },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

export async function putPartViaApi(
  app: FastifyInstance,
  user: TestUser,
  init: InitAnswer,
  data: Buffer,
  n: number,
): Promise<string> {
  const res = await app.inject({
    method: 'PUT',
    url: `/api/v1/upload/multipart/${init.upload_id}/parts/${n}`,
    headers: { ...user.headers, 'content-type': 'application/octet-stream' },
    payload: slice(data, init.part_size, n),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().etag as string;
}

/** Uploads every part through the API and completes: the uploaded asset's id. */
export async function uploadViaApi(
  app: FastifyInstance,
  user: TestUser,
  data: Buffer,
  contentType = 'audio/flac',
): Promise<string> {
  const init = await initUpload(app, user, data, { sha256: sha256(data), content_type: contentType });
  const parts = [];
  for (const p of init.parts)
    parts.push({
      part_number: p.part_number,
      etag: await putPartViaApi(app, user, init, data, p.part_number),
    });
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/upload/multipart/complete',
    headers: user.headers,
    payload: { upload_id: init.upload_id, asset_id: init.asset_id, parts },
  });
  expect(res.statusCode, res.body).toBe(200);
  return init.asset_id;
}
