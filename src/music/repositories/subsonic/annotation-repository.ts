/** A caller's stars and ratings of songs, albums and artists (Subsonic's annotation endpoints). */
import type { PrismaClient } from '../prisma.js';

export type StarredKind = 'song' | 'album' | 'artist';

export class SubsonicAnnotationRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async starredIds(userId: string, kind: 'album' | 'artist'): Promise<string[]> {
    const rows = await this.prisma.subsonicStar.findMany({
      where: { userId, kind },
      orderBy: { starredAt: 'desc' },
    });
    return rows.map((r) => r.itemId);
  }

  async star(userId: string, items: { id: string; kind: StarredKind }[]): Promise<void> {
    await this.prisma.subsonicStar.createMany({
      data: items.map((i) => ({ userId, itemId: i.id, kind: i.kind })),
      skipDuplicates: true,
    });
  }

  async unstar(userId: string, ids: string[]): Promise<void> {
    await this.prisma.subsonicStar.deleteMany({ where: { userId, itemId: { in: ids } } });
  }

  async setRating(userId: string, itemId: string, rating: number): Promise<void> {
    if (rating === 0) await this.prisma.subsonicRating.deleteMany({ where: { userId, itemId } });
    else
      await this.prisma.subsonicRating.upsert({
        where: { userId_itemId: { userId, itemId } },
        create: { userId, itemId, rating },
        update: { rating },
      });
  }
}
