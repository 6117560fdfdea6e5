/**
 * Scenario 3: an API host cut off (its veth down) while listeners browse through `lb` and live
 * clients hold websockets. lb routes around it; only requests in flight to it are lost; every
 * live client reconnects to the other host and, resuming with last_id, misses no event.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'vitest';
import { percentile } from '../../load-tests/lib/report.js';
import { HEARTBEAT_SECONDS, LB, musicUrl, type Cluster } from './cluster.js';
import type { UploadedTrack } from './music-client.js';
import { clientFetch } from './clients.js';
import { CLIENT_ADDRESSES, setHostLink } from './netns.js';
import { answersOk, until } from './processes.js';
import { record } from './results.js';
import { ResilientLive } from './resilient-live.js';

async function signupOn(base: string, address: string): Promise<string> {
  const handle = `c_${randomBytes(5).toString('hex')}`;
  const res = await fetch(`${base}/api/v1/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ handle, email: `${handle}@example.org`, password: 'cluster test passphrase' }),
  });
  if (res.status !== 201) throw new Error(`signup: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

interface Outcome {
  startedAt: number;
  ms: number;
  status: number | 'error';
  /** A refusal's detail (nginx's and the API's differ), for the report. */
  detail?: string;
}

/** Addresses the browsing loops use: none of the live clients' (the last 60 on), so neither spends the other's limit. */
const BROWSE_ADDRESSES = CLIENT_ADDRESSES.length - 60;

export async function apiHostCut(cluster: Cluster, track: UploadedTrack): Promise<void> {
  const live = Array.from(
    { length: 6 },
    (_, i) =>
      new ResilientLive(
        `wss://${LB.slice(8)}/api/v1/events`,
        track.token,
        HEARTBEAT_SECONDS,
        cluster.ca,
        CLIENT_ADDRESSES[CLIENT_ADDRESSES.length - 60 + i]!,
      ),
  );
  await Promise.all(live.map((l) => l.start()));
  // The commenters write on api2 directly (each its own address): the events' source stays up.
  const commenters = await Promise.all([1, 2, 3].map((n) => signupOn(musicUrl('api2'), `203.0.113.${n}`)));
  let sent = 0;
  const comment = async (): Promise<void> => {
    const n = sent++;
    const res = await fetch(`${musicUrl('api2')}/api/v1/comments`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${commenters[n % 3]}`,
        // Each comment from an address of its own: the comments scope allows 6 at once per address.
        'x-forwarded-for': `203.0.113.${n + 10}`,
      },
      body: JSON.stringify({ track_id: track.trackId, body: `comment ${n}` }),
    });
    expect(res.status, await res.text()).toBe(201);
  };

  // Listeners browsing through lb the whole time: 8 loops, each request with a 90 s bound.
  const outcomes: Outcome[] = [];
  let browsing = true;
  let requestNumber = 0;
  const browse = async (): Promise<void> => {
    while (browsing) {
      const startedAt = performance.now();
      try {
        const res = await clientFetch(
          requestNumber++ % BROWSE_ADDRESSES,
          `${LB}/api/v1/tracks/${track.trackId}`,
          { signal: AbortSignal.timeout(90_000) },
        );
        const body = await res.text();
        outcomes.push({
          startedAt,
          ms: performance.now() - startedAt,
          status: res.status,
          ...(res.status === 200 ? {} : { detail: body.slice(0, 200) }),
        });
      } catch {
        outcomes.push({ startedAt, ms: performance.now() - startedAt, status: 'error' });
      }
      // A listener's pace (~10 pages a second a loop): within nginx's 100 a minute per address.
      await sleep(100);
    }
  };
  const loops = Array.from({ length: 8 }, browse);
  let cutAt = 0;
  let total = 0;
  try {
    for (let i = 0; i < 5; i++) await comment();
    await sleep(2000);
    cutAt = performance.now();
    await setHostLink('api1', false);
    for (let i = 0; i < 15; i++) {
      await comment();
      await sleep(300);
    }
    total = sent;
    await until(
      () =>
        `every live client has every comment (${total}); they have ${live
          .map(
            (l) =>
              `${l.events.filter((e) => e.type === 'comment.created').length} after ${l.reconnects} reconnects (last failure: ${l.failures.at(-1) ?? 'none'})`,
          )
          .join(', ')}`,
      120,
      () =>
        Promise.resolve(
          live.every((l) => l.events.filter((e) => e.type === 'comment.created').length >= total),
        ),
    );
    await sleep(5000);
  } finally {
    browsing = false;
    await Promise.all(loops);
    for (const l of live) l.stop();
    await setHostLink('api1', true);
  }

  for (const l of live) {
    const comments = l.events.filter((e) => e.type === 'comment.created');
    const ids = comments.map((e) => e.id);
    expect(new Set(ids).size, 'no event twice').toBe(ids.length);
    expect(comments.length).toBe(total);
    expect(l.resyncs).toBe(0);
  }
  const before = outcomes.filter((o) => o.startedAt < cutAt);
  const after = outcomes.filter((o) => o.startedAt >= cutAt);
  const failed = (os: Outcome[]) => os.filter((o) => o.status !== 200);
  const summary = (os: Outcome[]): Record<string, number> => {
    const counts: Record<string, number> = {};
    for (const o of os) {
      const key = `${o.status} ${o.detail?.slice(0, 120) ?? ''}`;
      counts[key] = (counts[key] ?? 0) + 1;
    }
    return counts;
  };
  const inFlight = before.filter((o) => o.startedAt + o.ms > cutAt);
  // Requests that began after the cut all succeed (lb went to api2); only the in-flight ones may fail.
  expect(summary(failed(after)), `requests after the cut (${after.length}) that failed`).toEqual({});
  const lostInFlight = failed(inFlight).length;
  expect(failed(before).length).toBe(lostInFlight);
  const afterMs = after.map((o) => o.ms).sort((a, b) => a - b);
  const reconnected = live.filter((l) => l.reconnects > 0).length;

  await until('api1 answers again', 60, () => answersOk(`${musicUrl('api1')}/api/v1/health/ready`));
  record('3. An API host cut off', [
    `api1's veth went down while 8 loops browsed a track page through lb (each request from the next of 150`,
    `client addresses) and 6 websocket clients of the`,
    `track's owner listened; 3 commenters wrote ${total} comments on api2 (5 before the cut, 15 during it).`,
    '',
    `| figure | value |`,
    `| ------ | ----: |`,
    `| requests before the cut / failed | ${before.length} / ${failed(before).length} |`,
    `| of them in flight at the cut / lost (nginx's 504 after proxy_read_timeout, answered 503) | ${inFlight.length} / ${lostInFlight} |`,
    `| requests started after the cut / failed | ${after.length} / ${failed(after).length} |`,
    `| after the cut: p50 / p99 / max (ms) | ${percentile(afterMs, 50).toFixed(0)} / ${percentile(afterMs, 99).toFixed(0)} / ${(afterMs.at(-1) ?? 0).toFixed(0)} |`,
    `| websocket clients that reconnected (silence > 2 heartbeats of ${HEARTBEAT_SECONDS} s) | ${reconnected} of 6 |`,
    `| comment events each client received / duplicates / resyncs | ${total} / 0 / 0 |`,
    `| failed reconnection attempts (all clients; each retried after 1, 2, 4 … s as the player does) | ${live.reduce((n, l) => n + l.failures.length, 0)} |`,
  ]);
}
