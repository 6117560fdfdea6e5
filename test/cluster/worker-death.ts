/**
 * Scenario 2: a worker host dies mid-job. A reference version is processed with both workers up;
 * then the same audio is uploaded twice more and the worker host seen running ffmpeg is killed
 * (every process in its namespace, SIGKILL). The other worker finishes both versions, and every
 * published object is byte-identical to the reference's.
 */
import { expect } from 'vitest';
import { noiseWav } from '../../load-tests/scenarios/upload-burst.js';
import type { Cluster } from './cluster.js';
import {
  stagingLeft,
  untilReady,
  uploadTrack,
  versionOutputs,
  versionStatus,
  type UploadedTrack,
} from './music-client.js';
import { commandsOn, killHost } from './netns.js';
import { until } from './processes.js';
import { record } from './results.js';

export async function workerHostDies(cluster: Cluster): Promise<UploadedTrack> {
  const wav = noiseWav(40, 44_100);
  const reference = await uploadTrack(cluster, wav, '198.51.100.1');
  await untilReady(cluster, [reference.versionId]);
  const expected = await versionOutputs(cluster, reference.versionId);
  expect(expected.size).toBeGreaterThan(3);

  const faulted = [
    await uploadTrack(cluster, wav, '198.51.100.2'),
    await uploadTrack(cluster, wav, '198.51.100.3'),
  ];
  let victim: 'worker1' | 'worker2' | undefined;
  await until('a worker host runs ffmpeg', 120, async () => {
    for (const host of ['worker1', 'worker2'] as const)
      if ((await commandsOn(host)).includes('ffmpeg')) victim = host;
    return victim !== undefined;
  });
  const killedAt = performance.now();
  const killed = await killHost(victim!);
  const statusesAtKill = await Promise.all(faulted.map((f) => versionStatus(cluster, f.versionId)));
  await untilReady(
    cluster,
    faulted.map((f) => f.versionId),
  );
  const recoveredMs = performance.now() - killedAt;
  const rows: string[] = [];
  for (const f of faulted) {
    const outputs = await versionOutputs(cluster, f.versionId);
    expect([...outputs.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [name, hash] of expected) expect(outputs.get(name), name).toBe(hash);
    rows.push(
      `| ${f.versionId} | ${outputs.size} | identical | ${await stagingLeft(cluster, f.versionId)} |`,
    );
  }
  const stuck = await cluster.data.query<{ n: string }>(
    "SELECT count(*) AS n FROM track_versions WHERE status IN ('processing', 'pending', 'failed')",
    'music',
  );
  expect(Number(stuck[0]!.n)).toBe(0);
  const survivor = victim === 'worker1' ? 'worker2' : 'worker1';
  await cluster.startWorker(victim!);
  record('2. A worker host dies mid-job', [
    `${victim} was killed (SIGKILL to its ${killed} processes: the music-worker and its ffmpeg) while transcoding;`,
    `the versions were ${statusesAtKill.join(' and ')} then. ${survivor} finished both; ready ${(recoveredMs / 1000).toFixed(1)} s`,
    `after the kill (lock 5 s, stalled check every 2 s). Reference: the same 40 s WAV processed with both workers up`,
    `(${expected.size} published objects).`,
    '',
    '| version | objects | vs reference (sha256 of each) | staging keys left by the killed attempt |',
    '| ------- | ------: | ----------------------------- | --------------------------------------: |',
    ...rows,
    '',
    '- versions not `ready` afterwards (processing, pending or failed): 0',
  ]);
  return reference;
}
