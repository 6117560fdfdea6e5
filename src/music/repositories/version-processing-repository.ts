/** The version rows the media pipeline reads and writes (status, outputs, loudness). */
import { cutText } from '../../core/text-length.js';
import { retryConflicts } from './conflict-retry.js';
import type { PrismaClient } from './prisma.js';

export interface VersionOutputs {
  durationMs?: number;
  hlsKey?: string;
  progressiveKey?: string;
  waveformKey?: string;
  artworkKey?: string | null;
  loudnessIntegrated?: number;
  loudnessRange?: number;
  truePeak?: number | null;
  replayGain?: number;
}

export interface VersionState {
  id: string;
  trackId: string;
  status: 'pending' | 'processing' | 'ready' | 'failed';
  error: string | null;
  hlsKey: string | null;
  waveformKey: string | null;
  loudnessIntegrated: number | null;
}

export interface VersionProcessingRepository {
  find(versionId: string): Promise<VersionState | undefined>;
  /** pending -> processing; any other status is left alone (a sibling may have failed it). */
  markProcessing(versionId: string): Promise<void>;
  saveOutputs(versionId: string, outputs: VersionOutputs): Promise<void>;
  /** ready, and the track's current version unless a newer version already is; true if this call made it ready. */
  markReady(versionId: string): Promise<boolean>;
  /** failed with the first permanent error: a later failure does not overwrite it; true if this call failed it. */
  markFailed(versionId: string, error: string): Promise<boolean>;
  /** failed -> processing with the error cleared (an operator retries the version's jobs). */
  reopen(versionId: string): Promise<void>;
}

export class PrismaVersionProcessingRepository implements VersionProcessingRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async find(versionId: string): Promise<VersionState | undefined> {
    const row = await this.prisma.trackVersion.findUnique({
      where: { id: versionId },
      select: {
        id: true,
        trackId: true,
        status: true,
        error: true,
        hlsKey: true,
        waveformKey: true,
        loudnessIntegrated: true,
      },
    });
    return row ?? undefined;
  }

  async markProcessing(versionId: string): Promise<void> {
    await retryConflicts(() =>
      this.prisma.trackVersion.updateMany({
        where: { id: versionId, status: 'pending' },
        data: { status: 'processing' },
      }),
    );
  }

  async saveOutputs(versionId: string, outputs: VersionOutputs): Promise<void> {
    await retryConflicts(() => this.prisma.trackVersion.update({ where: { id: versionId }, data: outputs }));
  }

  /** pending|processing -> ready (a failed or already-ready version is left as it is). */
  async markReady(versionId: string): Promise<boolean> {
    return retryConflicts(() =>
      this.prisma.$transaction(async (tx) => {
        const { count } = await tx.trackVersion.updateMany({
          where: { id: versionId, status: { in: ['pending', 'processing'] } },
          data: { status: 'ready', error: null },
        });
        if (count === 0) return false;
        const version = await tx.trackVersion.findUniqueOrThrow({
          where: { id: versionId },
          select: { trackId: true, number: true },
        });
        const track = await tx.track.findUnique({
          where: { id: version.trackId },
          select: { currentVersion: { select: { number: true } } },
        });
        const current = track?.currentVersion?.number;
        if (current === undefined || current <= version.number) {
          await tx.track.update({ where: { id: version.trackId }, data: { currentVersionId: versionId } });
        }
        return true;
      }),
    );
  }

  async markFailed(versionId: string, error: string): Promise<boolean> {
    const { count } = await retryConflicts(() =>
      this.prisma.trackVersion.updateMany({
        where: { id: versionId, status: { in: ['pending', 'processing'] } },
        data: { status: 'failed', error: cutText(error, 2000) },
      }),
    );
    return count > 0;
  }

  async reopen(versionId: string): Promise<void> {
    await retryConflicts(() =>
      this.prisma.trackVersion.updateMany({
        where: { id: versionId, status: 'failed' },
        data: { status: 'processing', error: null },
      }),
    );
  }
}
