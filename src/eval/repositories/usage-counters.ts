/**
 * Usage counters per tool: calls, 2xx, 4xx, 5xx and verdicts. Never anything from a payload
 * or an address. Shared through Redis when configured; otherwise kept in memory and flushed
 * to a small JSON file under DATA_DIR so restarts keep them.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Redis } from 'ioredis';

export interface ToolCounters {
  calls: number;
  status_2xx: number;
  status_4xx: number;
  status_5xx: number;
  verdicts: Record<string, number>;
}

export interface StatsSnapshot {
  since: string | null;
  tools: Record<string, ToolCounters>;
}

export interface UsageCounters {
  record(toolId: string, status: number, verdict?: string): void;
  snapshot(): Promise<StatsSnapshot>;
  close(): Promise<void>;
}

function emptyCounters(): ToolCounters {
  return { calls: 0, status_2xx: 0, status_4xx: 0, status_5xx: 0, verdicts: {} };
}

function statusField(status: number): 'status_2xx' | 'status_4xx' | 'status_5xx' | undefined {
  if (status >= 200 && status < 300) return 'status_2xx';
  if (status >= 400 && status < 500) return 'status_4xx';
  if (status >= 500) return 'status_5xx';
  return undefined;
}

export class FileUsageCounters implements UsageCounters {
  private data: StatsSnapshot = { since: null, tools: {} };
  private dirty = false;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  private constructor(private readonly file: string) {}

  static async open(dataDir: string, flushMs = 5000): Promise<FileUsageCounters> {
    const store = new FileUsageCounters(path.join(dataDir, 'eval-stats.json'));
    try {
      const parsed = JSON.parse(await readFile(store.file, 'utf8')) as StatsSnapshot;
      if (parsed && typeof parsed === 'object' && parsed.tools) store.data = parsed;
    } catch {
      // No file yet (first start) or an unreadable one: start counting afresh.
    }
    store.data.since ??= new Date().toISOString();
    store.timer = setInterval(() => void store.flush(), flushMs);
    store.timer.unref();
    return store;
  }

  record(toolId: string, status: number, verdict?: string): void {
    const c = (this.data.tools[toolId] ??= emptyCounters());
    c.calls++;
    const field = statusField(status);
    if (field) c[field]++;
    if (verdict) c.verdicts[verdict] = (c.verdicts[verdict] ?? 0) + 1;
    this.dirty = true;
  }

  snapshot(): Promise<StatsSnapshot> {
    return Promise.resolve(structuredClone(this.data));
  }

  /** Write to a temporary file and rename, so a crash mid-write never leaves a torn file. */
  flush(): Promise<void> {
    if (!this.dirty) return this.writing;
    this.dirty = false;
    const text = JSON.stringify(this.data);
    this.writing = this.writing.then(async () => {
      await mkdir(path.dirname(this.file), { recursive: true });
      const tmp = `${this.file}.${process.pid}.tmp`;
      await writeFile(tmp, text);
      await rename(tmp, this.file);
    });
    return this.writing;
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
  }
}

export class RedisUsageCounters implements UsageCounters {
  private readonly key: string;

  constructor(
    private readonly redis: Redis,
    keyPrefix: string,
  ) {
    this.key = `${keyPrefix}stats`;
    void this.redis.hsetnx(this.key, 'since', new Date().toISOString()).catch(() => undefined);
  }

  record(toolId: string, status: number, verdict?: string): void {
    const m = this.redis.multi().hincrby(this.key, `${toolId}|calls`, 1);
    const field = statusField(status);
    if (field) m.hincrby(this.key, `${toolId}|${field}`, 1);
    if (verdict) m.hincrby(this.key, `${toolId}|verdict|${verdict}`, 1);
    // Counting is best effort: a Redis hiccup must not fail the request that was answered.
    m.exec().catch(() => undefined);
  }

  async snapshot(): Promise<StatsSnapshot> {
    const raw = await this.redis.hgetall(this.key);
    const out: StatsSnapshot = { since: raw.since ?? null, tools: {} };
    for (const [field, value] of Object.entries(raw)) {
      const parts = field.split('|');
      if (parts.length < 2) continue;
      const c = (out.tools[parts[0]!] ??= emptyCounters());
      const n = Number(value);
      if (parts[1] === 'verdict' && parts[2]) c.verdicts[parts[2]] = n;
      else if (
        parts[1] === 'calls' ||
        parts[1] === 'status_2xx' ||
        parts[1] === 'status_4xx' ||
        parts[1] === 'status_5xx'
      )
        c[parts[1]] = n;
    }
    return out;
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
