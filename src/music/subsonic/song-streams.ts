/**
 * Subsonic's binary endpoints over the pipeline's outputs: `stream` (the progressive top rung,
 * a capped bitrate transcoded once and kept in the transcodes store, or a seek with ffmpeg on
 * the fly), the original for `format=raw` and `download`, cover art and the HLS redirect.
 * Stored files answer byte ranges with an exact Content-Length. The ffmpeg runs are bounded
 * (on-demand-encodes.ts).
 */
import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { rangeOutsideFile } from '../errors/media.js';
import {
  cappedKey,
  cappedTranscodeArgs,
  chooseBitrate,
  offsetStreamArgs,
} from '../ffmpeg-commands/subsonic-stream-args.js';
import type { FfmpegRunner } from '../repositories/ffmpeg-runner.js';
import type { ObjectStore } from '../repositories/object-store/object-store.js';
import type { ScratchFiles } from '../repositories/scratch-files.js';
import type { SongRow } from '../repositories/subsonic/library-model.js';
import { rangedObjectAnswer, type MediaAnswer } from '../services/ranged-object.js';
import { signedUrl } from '../services/secure-link.js';
import { originalServedType, storedBytesHeaders, type MediaHeaderOptions } from '../services/stored-media.js';
import type { MediaSigner } from '../services/track-views.js';
import { hlsMasterKey } from '../services/track-views.js';
import { estimatedAdtsBytes, exactLength } from './exact-length.js';
import { closedWhileWaiting, notFound } from './errors.js';
import type { OnDemandEncodes } from './on-demand-encodes.js';
import { topRungKbps } from './views.js';

export type BinaryAnswer = MediaAnswer & { kind: 'binary' };

export interface RedirectAnswer {
  kind: 'redirect';
  location: string;
}

export interface SongStreamDeps {
  originals: ObjectStore;
  transcodes: ObjectStore;
  images: ObjectStore;
  ffmpeg: FfmpegRunner;
  scratch: ScratchFiles;
  signer: MediaSigner;
  encodes: OnDemandEncodes;
}

export interface StreamOptions {
  /** The caller, whose share of on-demand encodes a seek or a new capped bitrate takes. */
  userId: string;
  maxBitRateKbps: number;
  raw: boolean;
  timeOffsetSeconds: number;
  /** Declare an estimated Content-Length for a stream transcoded on the fly. */
  estimateContentLength: boolean;
}

/** Encoding a whole song takes seconds; a stream being listened to may last hours. */
const TRANSCODE_TIMEOUT_MS = 10 * 60_000;
const OFFSET_STREAM_TIMEOUT_MS = 6 * 3600_000;
const PRIVATE_CACHE = 'private, max-age=3600';

export class SongStreams {
  constructor(private readonly deps: SongStreamDeps) {}

  async stream(
    song: SongRow,
    options: StreamOptions,
    rangeHeader: string | undefined,
    signal: AbortSignal,
  ): Promise<BinaryAnswer> {
    if (options.raw) return this.original(song, rangeHeader);
    if (!song.progressive_key) throw notFound('Rendition');
    const choice = chooseBitrate(options.maxBitRateKbps, topRungKbps(song));
    const kbps = choice.kind === 'capped' ? choice.kbps : undefined;
    if (options.timeOffsetSeconds > 0) {
      const remaining = (song.duration_ms ?? 0) / 1000 - options.timeOffsetSeconds;
      const length = options.estimateContentLength
        ? estimatedAdtsBytes(remaining, kbps ?? topRungKbps(song))
        : undefined;
      const source = song.progressive_key;
      return this.deps.encodes.streaming(options.userId, () =>
        this.offsetStream(source, options.timeOffsetSeconds, kbps, length, signal),
      );
    }
    const key =
      kbps === undefined
        ? song.progressive_key
        : await this.capped(song, song.progressive_key, kbps, options.userId);
    return this.stored(this.deps.transcodes, key, rangeHeader, 'audio/mp4');
  }

  /** The uploaded file itself (format=raw, download): its probed type, always a download. */
  original(song: SongRow, rangeHeader: string | undefined): Promise<BinaryAnswer> {
    return this.stored(
      this.deps.originals,
      song.object_key,
      rangeHeader,
      originalServedType(song.content_type),
      {
        attachment: { filename: song.filename },
      },
    );
  }

  /** The 300 px cover for size ≤ 300 (the player scales down), else the 600 px one. */
  cover(artworkKey: string, size: number | undefined): Promise<BinaryAnswer> {
    const key =
      size !== undefined && size <= 300 ? artworkKey.replace(/cover-600\.jpg$/, 'cover-300.jpg') : artworkKey;
    return this.stored(this.deps.images, key, undefined, 'image/jpeg');
  }

  hls(song: SongRow): RedirectAnswer {
    if (!song.hls_key) throw notFound('HLS playlist');
    const s = this.deps.signer;
    return {
      kind: 'redirect',
      location: signedUrl(`/media/hls/${hlsMasterKey(song.hls_key)}`, s.secret, s.ttlSeconds, s.nowSeconds()),
    };
  }

  private async stored(
    store: ObjectStore,
    key: string,
    rangeHeader: string | undefined,
    contentType: string,
    options: MediaHeaderOptions = {},
  ): Promise<BinaryAnswer> {
    const info = await store.head(key);
    if (!info) throw notFound('Media file');
    const headers = {
      ...storedBytesHeaders(contentType, options),
      'accept-ranges': 'bytes',
      'cache-control': PRIVATE_CACHE,
    };
    const answer = await rangedObjectAnswer(store, key, info.size, rangeHeader, headers, {
      missing: () => notFound('Media file'),
      outside: rangeOutsideFile,
    });
    return { kind: 'binary', ...answer };
  }

  /** A capped bitrate: made once from the top rung, kept beside the version's renditions. */
  private async capped(song: SongRow, source: string, kbps: number, userId: string): Promise<string> {
    const key = cappedKey(song.version_id, kbps);
    if (await this.deps.transcodes.head(key)) return key;
    await this.deps.encodes.once(key, userId, async () => {
      // Made by a request that finished between this one's look and its turn.
      if (await this.deps.transcodes.head(key)) return;
      await this.transcode(song, source, kbps, key);
    });
    return key;
  }

  private async transcode(song: SongRow, source: string, kbps: number, key: string): Promise<void> {
    await this.deps.scratch.within('subsonic', async (folder) => {
      const input = await folder.spool(this.deps.transcodes, source, 'source.m4a');
      if (input === undefined) throw notFound('Rendition');
      const output = `out-${kbps}k.m4a`;
      this.deps.encodes.began('capped');
      await this.deps.ffmpeg.ffmpeg(
        cappedTranscodeArgs(input, folder.path(output), kbps, song.channels ?? 2),
        { timeoutMs: TRANSCODE_TIMEOUT_MS },
      );
      // Written under a temporary key, then moved: a reader never sees half a file.
      const staging = `staging/${song.version_id}/${randomUUID()}/aac-${kbps}k.m4a`;
      await this.deps.transcodes.put(staging, await folder.read(output), { contentType: 'audio/mp4' });
      await this.deps.transcodes.move(staging, key);
    });
  }

  /** The answer once ffmpeg started, and `done` when it ended (its encode slot is held until then). */
  private async offsetStream(
    source: string,
    offsetSeconds: number,
    kbps: number | undefined,
    length: number | undefined,
    signal: AbortSignal,
  ): Promise<{ answer: BinaryAnswer; done: Promise<unknown> }> {
    // A client that left while waiting for a slot needs no copy of the source.
    if (signal.aborted) throw closedWhileWaiting();
    const folder = await this.deps.scratch.folder('subsonic');
    let input: string | undefined;
    try {
      input = await folder.spool(this.deps.transcodes, source, 'source.m4a');
      if (input === undefined) throw notFound('Rendition');
    } catch (err) {
      await folder.remove();
      throw err;
    }
    const out = new PassThrough();
    this.deps.encodes.began('offset');
    const done = this.deps.ffmpeg
      .ffmpeg(offsetStreamArgs(input, offsetSeconds, kbps), {
        timeoutMs: OFFSET_STREAM_TIMEOUT_MS,
        signal,
        stdout: (stream) => pipeline(stream, out),
      })
      .catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))))
      .finally(() => folder.remove());
    // No byte ranges: the bytes are made as they are sent.
    const headers = {
      ...storedBytesHeaders('audio/aac'),
      'cache-control': 'no-store',
      'accept-ranges': 'none',
    };
    if (length === undefined) return { answer: { kind: 'binary', status: 200, headers, body: out }, done };
    const body = exactLength(length);
    // pipeline destroys the sized body when ffmpeg fails, so the answer ends instead of hanging.
    pipeline(out, body).catch(() => undefined);
    return {
      answer: {
        kind: 'binary',
        status: 200,
        headers: { ...headers, 'content-length': String(length) },
        body,
      },
      done,
    };
  }
}
