/** Whose track it is: the worker tells the owner about their version's steps. */
import type { PrismaClient } from './prisma.js';

export interface TrackOwners {
  ownerOf(trackId: string): Promise<string | undefined>;
}

/** Owners never change, so they are remembered (a few thousand tracks at most). */
export class PrismaTrackOwners implements TrackOwners {
  private readonly known = new Map<string, string>();

  constructor(
    private readonly prisma: PrismaClient,
    private readonly max = 5000,
  ) {}

  async ownerOf(trackId: string): Promise<string | undefined> {
    const cached = this.known.get(trackId);
    if (cached !== undefined) return cached;
    const row = await this.prisma.track.findUnique({ where: { id: trackId }, select: { ownerUserId: true } });
    if (!row) return undefined;
    if (this.known.size >= this.max) this.known.clear();
    this.known.set(trackId, row.ownerUserId);
    return row.ownerUserId;
  }
}
