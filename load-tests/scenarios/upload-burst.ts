/**
 * Upload burst: many short audio files uploaded at once through the multipart API (init, PUT
 * each part to the URL the API gives, which is the API itself or a presigned S3 URL, complete).
 * Each upload is a distinct WAV so nothing can be deduplicated; every step must succeed.
 */
import { randomBytes } from 'node:crypto';
import { runFor, timed } from '../lib/http.js';
import { newTally, type ScenarioResult, type Tally } from '../lib/report.js';
import type { LoadOptions } from './options.js';

/** A mono 16-bit PCM WAV of `seconds` of noise at `rate` Hz. */
export function noiseWav(seconds = 1, rate = 8000): Buffer {
  const data = randomBytes(seconds * rate * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

interface InitAnswer {
  upload_id: string;
  asset_id: string;
  part_size: number;
  parts: { part_number: number; url: string }[];
}

type UploadRows = Record<'signup' | 'init' | 'part' | 'complete', Tally>;

/** One new account uploading `wav` through the multipart API: its token and the asset, or why not. */
export async function uploadOne(
  base: string,
  address: string,
  wav: Buffer,
  rows: UploadRows,
): Promise<{ token: string; assetId: string } | { failure: string }> {
  const json = { 'content-type': 'application/json', 'x-forwarded-for': address };
  const handle = `load_${randomBytes(6).toString('hex')}`;
  const signup = await timed(rows.signup, `${base}/api/v1/auth/signup`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({
      handle,
      email: `${handle}@example.org`,
      password: `load test passphrase ${randomBytes(6).toString('hex')}`,
    }),
  });
  if (signup?.status !== 201)
    return {
      failure: `signup: ${signup?.status ?? 'no answer'} ${signup?.body.toString().slice(0, 200) ?? ''}`,
    };
  const token = (JSON.parse(signup.body.toString()) as { token: string }).token;
  const auth = { ...json, authorization: `Bearer ${token}` };
  const init = await timed(rows.init, `${base}/api/v1/upload/multipart/init`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ filename: 'burst.wav', content_type: 'audio/wav', size: wav.length }),
  });
  if (init?.status !== 201)
    return { failure: `init: ${init?.status ?? 'no answer'} ${init?.body.toString().slice(0, 200) ?? ''}` };
  const plan = JSON.parse(init.body.toString()) as InitAnswer;
  const parts: { part_number: number; etag: string }[] = [];
  for (const p of plan.parts) {
    const chunk = wav.subarray((p.part_number - 1) * plan.part_size, p.part_number * plan.part_size);
    const absolute = /^https?:/.test(p.url);
    const put = await timed(rows.part, absolute ? p.url : `${base}${p.url}`, {
      method: 'PUT',
      headers: absolute
        ? {}
        : {
            authorization: auth.authorization,
            'content-type': 'application/octet-stream',
            'x-forwarded-for': address,
          },
      body: chunk,
    });
    if (put?.status !== 200) return { failure: `part ${p.part_number}: ${put?.status ?? 'no answer'}` };
    const etag = absolute
      ? (put.headers.get('etag') ?? '')
      : (JSON.parse(put.body.toString()) as { etag: string }).etag;
    parts.push({ part_number: p.part_number, etag });
  }
  const complete = await timed(rows.complete, `${base}/api/v1/upload/multipart/complete`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ upload_id: plan.upload_id, asset_id: plan.asset_id, parts }),
  });
  if (complete?.status !== 200)
    return {
      failure: `complete: ${complete?.status ?? 'no answer'} ${complete?.body.toString().slice(0, 200) ?? ''}`,
    };
  return { token, assetId: plan.asset_id };
}

export interface NewTrack {
  trackId: string;
  token: string;
  /** The account's JSON headers, from `address`. */
  headers: Record<string, string>;
}

/** A new account uploads `wav` from `address`, makes a public track of it and adds it as its version (not waited for). */
export async function uploadAsTrack(
  base: string,
  address: string,
  wav: Buffer,
  title: string,
): Promise<NewTrack> {
  const uploaded = await uploadOne(base, address, wav, newUploadRows());
  if ('failure' in uploaded) throw new Error(`uploading "${title}": ${uploaded.failure}`);
  const headers = {
    'content-type': 'application/json',
    authorization: `Bearer ${uploaded.token}`,
    'x-forwarded-for': address,
  };
  const created = await fetch(`${base}/api/v1/tracks`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ title, visibility: 'public' }),
  });
  if (created.status !== 201)
    throw new Error(`creating "${title}": ${created.status} ${await created.text()}`);
  const { id } = (await created.json()) as { id: string };
  const added = await fetch(`${base}/api/v1/tracks/${id}/versions`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ asset_id: uploaded.assetId }),
  });
  if (added.status !== 202)
    throw new Error(`adding the version of "${title}": ${added.status} ${await added.text()}`);
  return { trackId: id, token: uploaded.token, headers };
}

export function newUploadRows(): UploadRows {
  return { signup: newTally(), init: newTally(), part: newTally(), complete: newTally() };
}

export async function uploadBurst(
  base: string,
  uploads: number,
  options: LoadOptions,
): Promise<ScenarioResult> {
  const started = performance.now();
  const rows = newUploadRows();
  const failures: string[] = [];
  const fail = (text: string) => {
    if (failures.length < 5) failures.push(text);
  };
  let completed = 0;
  // One account per upload: the API bounds unfinished uploads per account.
  await runFor({ ...options, maxIterations: Math.min(options.maxIterations, uploads) }, async () => {
    const uploaded = await uploadOne(base, options.clientAddress(), noiseWav(), rows);
    if ('failure' in uploaded) return fail(uploaded.failure);
    completed += 1;
  });
  if (completed === 0) fail('no upload completed');
  return {
    name: 'upload-burst',
    seconds: (performance.now() - started) / 1000,
    rows: Object.entries(rows).map(([label, tally]) => ({ label, tally })),
    failures,
    notes: [`${completed} of ${uploads} uploads completed, ${options.connections} at once`],
  };
}
