/**
 * The open bench's ledger: published (sanitized) receipts in PostgreSQL through Prisma, table
 * `open_bench_receipts`. A database that is down is a 503 with Retry-After.
 */
import { PrismaPg } from '@prisma/adapter-pg';
import { canonicalJson } from '../../core/canonical-json.js';
import { AppError } from '../../core/errors.js';
import { PrismaClient, type Prisma } from '../../../generated/prisma/client.js';
import type { PublicReceipt } from '../open-bench/public-receipt.js';
import { ledgerNotAnswering } from '../errors.js';
import type { TreeHeadSigner } from '../open-bench/log/tree-head.js';
import { MerkleLogStore, type Sql } from './open-bench-log.js';

export interface LeaderboardPage {
  total: number;
  entries: PublicReceipt[];
}

export interface OpenBenchLedger {
  /** Throws a 503 unless the database answers (checked before a session is spent). */
  ping(): Promise<void>;
  insert(receipt: PublicReceipt): Promise<void>;
  find(publicId: string): Promise<PublicReceipt | undefined>;
  page(order: 'newest' | 'best', offset: number, limit: number): Promise<LeaderboardPage>;
  /** Leaf indexes in the transparency log of these receipts. */
  logIndexes(publicIds: readonly string[]): Promise<Map<string, number>>;
  close(): Promise<void>;
}

function unavailable(err: unknown): AppError {
  if (err instanceof AppError) return err;
  return ledgerNotAnswering();
}

export async function guarded<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw unavailable(err);
  }
}

const ORDERS: Record<'newest' | 'best', Prisma.OpenBenchReceiptOrderByWithRelationInput[]> = {
  newest: [{ publishedAt: 'desc' }, { id: 'desc' }],
  best: [
    { candidatePassed: 'desc' },
    { regressions: 'asc' },
    { gains: 'desc' },
    { publishedAt: 'desc' },
    { id: 'desc' },
  ],
};

/** Raw parameterised SQL through a Prisma client or interactive transaction. */
const prismaSql = (client: Pick<PrismaClient, '$queryRawUnsafe'>): Sql => ({
  query: <T>(text: string, values: unknown[] = []) => client.$queryRawUnsafe<T[]>(text, ...values),
});

export class PrismaOpenBenchLedger implements OpenBenchLedger {
  private readonly prisma: PrismaClient;
  /** The transparency log, appended in the same transaction as each receipt. */
  readonly log: MerkleLogStore;

  constructor(databaseUrl: string, log: { signer: TreeHeadSigner; now: () => number }) {
    const adapter = new PrismaPg({ connectionString: databaseUrl, max: 4, connectionTimeoutMillis: 5_000 });
    this.prisma = new PrismaClient({ adapter });
    this.log = new MerkleLogStore(prismaSql(this.prisma), log.signer, log.now);
  }

  ping(): Promise<void> {
    return guarded(async () => {
      await this.prisma.$queryRaw`SELECT 1`;
    });
  }

  insert(r: PublicReceipt): Promise<void> {
    return guarded(() =>
      this.prisma.$transaction(
        async (tx) => {
          await tx.openBenchReceipt.create({
            data: {
              publicId: r.public_id,
              track: r.track,
              displayName: r.display_name,
              verdict: r.verdict,
              tasks: r.summary.tasks,
              baselinePassed: r.summary.baseline_passed,
              candidatePassed: r.summary.candidate_passed,
              gains: r.summary.gains,
              regressions: r.summary.regressions,
              receipt: r as unknown as Prisma.InputJsonValue,
              receiptSha256: r.hashes.public_sha256,
              publishedAt: new Date(r.published_at),
            },
          });
          // The entry is the public receipt's RFC 8785 bytes, exactly as served.
          await this.log.append(prismaSql(tx), r.public_id, Buffer.from(canonicalJson(r), 'utf8'));
        },
        { maxWait: 10_000, timeout: 15_000 },
      ),
    );
  }

  logIndexes(publicIds: readonly string[]): Promise<Map<string, number>> {
    return guarded(async () => {
      const rows = await this.prisma.openBenchLogEntry.findMany({
        where: { publicId: { in: [...publicIds] } },
        select: { publicId: true, leafIndex: true },
      });
      return new Map(rows.map((r) => [r.publicId, Number(r.leafIndex)]));
    });
  }

  find(publicId: string): Promise<PublicReceipt | undefined> {
    return guarded(async () => {
      const row = await this.prisma.openBenchReceipt.findUnique({
        where: { publicId },
        select: { receipt: true },
      });
      return row ? (row.receipt as unknown as PublicReceipt) : undefined;
    });
  }

  page(order: 'newest' | 'best', offset: number, limit: number): Promise<LeaderboardPage> {
    return guarded(async () => {
      const [total, rows] = await Promise.all([
        this.prisma.openBenchReceipt.count(),
        this.prisma.openBenchReceipt.findMany({
          orderBy: ORDERS[order],
          skip: offset,
          take: limit,
          select: { receipt: true },
        }),
      ]);
      return { total, entries: rows.map((r) => r.receipt as unknown as PublicReceipt) };
    });
  }

  close(): Promise<void> {
    return this.prisma.$disconnect();
  }
}
