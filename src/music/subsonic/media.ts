/**
 * Subsonic's binary endpoints over the pipeline's outputs: `stream` (the progressive top rung,
 * a capped bitrate transcoded once and kept in the transcodes store, or a seek with ffmpeg on
 * the fly), the original for `format=raw` and `download`, cover art and the HLS redirect.
 * Stored files answer byte ranges with an exact Content-Length.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../../core/errors.js';
import type { FfmpegRunner } from '../repositories/ffmpeg-runner.js';
import type { ObjectStore } from '../repositories/object-store/object-store.js';
import { spoolToFile } from '../../core/repositories/spool-file.js';
import { parseRange } from '../services/byte-range.js';
import { signedUrl } from '../services/secure-link.js';
import type { MediaSigner } from '../services/track-views.js';
import { originalServedType, storedBytesHeaders, type MediaHeaderOptions } from '../services/stored-media.js';
import { hlsMasterKey } from '../services/track-views.js';
import type { SongRow } from './library-repository.js';
import { estimatedAdtsBytes, exactLength } from './exact-length.js';
import { cappedKey, cappedTranscodeArgs, chooseBitrate, offsetStreamArgs } from './stream-args.js';
import { notFound } from './response.js';
import { topRungKbps } from './views.js';

export interface BinaryAnswer {
  kind: 'binary';
  status: 200 | 206;
  headers: Record<string, string>;
  body: Buffer | Readable;
}

export interface RedirectAnswer {
  kind: 'redirect';
  location: string;
}

export interface SubsonicMediaDeps {
  originals: ObjectStore;
  transcodes: ObjectStore;
  images: ObjectStore;
  ffmpeg: FfmpegRunner;
  tmpDir: string;
  signer: MediaSigner;
}

export interface StreamOptions {
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

export class SubsonicMedia {
  constructor(private readonly deps: SubsonicMediaDeps) {}

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
      return this.offsetStream(song.progressive_key, options.timeOffsetSeconds, kbps, length, signal);
    }
    const key =
      kbps === undefined ? song.progressive_key : await this.capped(song, song.progressive_key, kbps);
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
    const range = parseRange(rangeHeader, info.size);
    if (range.kind === 'unsatisfiable')
      throw new AppError(
        'range_not_satisfiable',
        `The requested range is outside the file (${info.size} bytes).`,
        {
          headers: { 'content-range': `bytes */${info.size}` },
        },
      );
    const got = await store.get(key, range.kind === 'partial' ? range.range : undefined);
    if (!got) throw notFound('Media file');
    const headers = {
      ...storedBytesHeaders(contentType, options),
      'accept-ranges': 'bytes',
      'cache-control': PRIVATE_CACHE,
    };
    if (!got.range)
      return {
        kind: 'binary',
        status: 200,
        headers: { ...headers, 'content-length': String(info.size) },
        body: got.body,
      };
    return {
      kind: 'binary',
      status: 206,
      headers: {
        ...headers,
        'content-range': `bytes ${got.range.start}-${got.range.end}/${info.size}`,
        'content-length': String(got.range.end - got.range.start + 1),
      },
      body: got.body,
    };
  }

  /** A capped bitrate: made once from the top rung, kept beside the version's renditions. */
  private async capped(song: SongRow, source: string, kbps: number): Promise<string> {
    const key = cappedKey(song.version_id, kbps);
    if (await this.deps.transcodes.head(key)) return key;
    await this.withSpooled(source, async (input, dir) => {
      const output = join(dir, `out-${kbps}k.m4a`);
      await this.deps.ffmpeg.ffmpeg(cappedTranscodeArgs(input, output, kbps, song.channels ?? 2), {
        timeoutMs: TRANSCODE_TIMEOUT_MS,
      });
      // Written under a temporary key, then moved: a reader never sees half a file.
      const staging = `staging/${song.version_id}/${randomUUID()}/aac-${kbps}k.m4a`;
      await this.deps.transcodes.put(staging, await readFile(output), { contentType: 'audio/mp4' });
      await this.deps.transcodes.move(staging, key);
    });
    return key;
  }

  private async offsetStream(
    source: string,
    offsetSeconds: number,
    kbps: number | undefined,
    length: number | undefined,
    signal: AbortSignal,
  ): Promise<BinaryAnswer> {
    const dir = join(this.deps.tmpDir, `subsonic-${randomUUID()}`);
    await mkdir(dir, { recursive: true });
    const input = join(dir, 'source.m4a');
    try {
      const got = await this.deps.transcodes.get(source);
      if (!got) throw notFound('Rendition');
      await spoolToFile(got.body, input, 'md5');
    } catch (err) {
      await rm(dir, { recursive: true, force: true });
      throw err;
    }
    const out = new PassThrough();
    const run = this.deps.ffmpeg.ffmpeg(offsetStreamArgs(input, offsetSeconds, kbps), {
      timeoutMs: OFFSET_STREAM_TIMEOUT_MS,
      signal,
      stdout: (stream) => pipeline(stream, out),
    });
    run
      .catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))))
      .finally(() => void rm(dir, { recursive: true, force: true }));
    // No byte ranges: the bytes are made as they are sent.
    const headers = {
      ...storedBytesHeaders('audio/aac'),
      'cache-control': 'no-store',
      'accept-ranges': 'none',
    };
    if (length === undefined) return { kind: 'binary', status: 200, headers, body: out };
    const body = exactLength(length);
    // pipeline destroys the sized body when ffmpeg fails, so the answer ends instead of hanging.
    pipeline(out, body).catch(() => undefined);
    return { kind: 'binary', status: 200, headers: { ...headers, 'content-length': String(length) }, body };
  }

  private async withSpooled(key: string, fn: (input: string, dir: string) => Promise<void>): Promise<void> {
    const dir = join(this.deps.tmpDir, `subsonic-${randomUUID()}`);
    await mkdir(dir, { recursive: true });
    try {
      const got = await this.deps.transcodes.get(key);
      if (!got) throw notFound('Rendition');
      const input = join(dir, 'source.m4a');
      await spoolToFile(got.body, input, 'md5');
      await fn(input, dir);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}
