/**
 * A valid MP3 whose ID3 picture frame is broken (declared image/png, SVG bytes): the version
 * becomes ready without artwork; the artwork step records it skipped, blaming the picture.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { versionJobId } from '../src/music/jobs/queues.js';
import { openFlowEvents, type FlowEvents } from './helpers/flow-events.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import {
  createVersionRows,
  run,
  startWorkerProcess,
  stopWorkerProcess,
  type WorkerProcess,
} from './helpers/music-worker.js';

/** An ID3v2.3 tag holding one APIC frame: `mime` declared, `data` as the picture. */
function id3WithPicture(mime: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from([0]), Buffer.from(`${mime}\0`), Buffer.from([3, 0]), data]);
  const frameHeader = Buffer.alloc(10);
  frameHeader.write('APIC', 0, 'latin1');
  frameHeader.writeUInt32BE(body.length, 4);
  const frames = Buffer.concat([frameHeader, body]);
  const size = frames.length;
  // The tag's size is "syncsafe": 7 bits per byte.
  const syncsafe = [(size >> 21) & 0x7f, (size >> 14) & 0x7f, (size >> 7) & 0x7f, size & 0x7f];
  return Buffer.concat([Buffer.from('ID3', 'latin1'), Buffer.from([3, 0, 0, ...syncsafe]), frames]);
}

describe('broken attached picture', () => {
  let t: MusicTestApp;
  let flow: FlowEvents;
  let worker: WorkerProcess;
  let dir: string;
  beforeAll(async () => {
    t = await createMusicTestApp({ RATE_LIMITS: 'off' });
    flow = await openFlowEvents(t.config, ['version-finalize', 'artwork-extract']);
    worker = await startWorkerProcess(t.config);
    dir = await mkdtemp(join(tmpdir(), 'broken-art-'));
  }, 120_000);
  afterAll(async () => {
    if (worker) await stopWorkerProcess(worker);
    await flow?.close();
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it(
    'makes the version ready without artwork and records the step skipped',
    { timeout: 180_000 },
    async () => {
      const plain = join(dir, 'plain.mp3');
      await run('ffmpeg', [
        ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=3:sample_rate=44100'],
        ...['-c:a', 'libmp3lame', '-b:a', '128k', '-id3v2_version', '0', '-write_id3v1', '0', plain],
      ]);
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect/></svg>');
      const mp3 = Buffer.concat([id3WithPicture('image/png', svg), await readFile(plain)]);
      const sourceKey = `broken-art/${Date.now()}.mp3`;
      await t.connections.stores.originals.put(sourceKey, mp3);
      const data = await createVersionRows(t.connections, sourceKey);

      const artwork = flow.outcome('artwork-extract', versionJobId('artwork-extract', data.versionId));
      const finalized = flow.outcome('version-finalize', versionJobId('version-finalize', data.versionId));
      await flow.starter.start(data);
      expect(await artwork).toBe('completed');
      expect(await finalized).toBe('completed');

      const version = await t.connections.prisma.trackVersion.findUniqueOrThrow({
        where: { id: data.versionId },
      });
      expect(version).toMatchObject({ status: 'ready', error: null, artworkKey: null });
      expect(version.hlsKey).not.toBeNull();

      const queue = new Queue('artwork-extract', { connection: flow.bull, prefix: t.config.queuePrefix });
      try {
        const job = await queue.getJob(versionJobId('artwork-extract', data.versionId));
        const result = job?.returnvalue as { artworkKey: null; skipped?: string };
        expect(result.artworkKey).toBeNull();
        expect(result.skipped).toMatch(/^the attached picture cannot be decoded: /);
        expect(result.skipped).not.toMatch(/audio/);
      } finally {
        await queue.close();
      }
    },
  );
});
