/**
 * In-process cache of hot media objects (playlists, segments, images), bounded by bytes:
 * least recently used entries are evicted until the total fits. Objects larger than
 * `maxObjectBytes` are never cached (they stream from the store). Map insertion order is the
 * recency order: a hit re-inserts its key.
 */

export interface CachedObject {
  body: Buffer;
  contentType: string;
  etag: string;
  lastModified: Date | undefined;
}

export interface HotObjectCacheStats {
  entries: number;
  bytes: number;
  hits: number;
  misses: number;
  evictions: number;
}

export class HotObjectCache {
  private readonly entries = new Map<string, CachedObject>();
  private bytes = 0;
  private hits = 0;
  private misses = 0;
  private evictions = 0;

  constructor(
    readonly maxBytes: number,
    readonly maxObjectBytes: number,
  ) {}

  get(key: string): CachedObject | undefined {
    const entry = this.entries.get(key);
    if (!entry) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  accepts(size: number): boolean {
    return size <= this.maxObjectBytes && size <= this.maxBytes;
  }

  set(key: string, entry: CachedObject): boolean {
    if (!this.accepts(entry.body.length)) return false;
    this.delete(key);
    this.entries.set(key, entry);
    this.bytes += entry.body.length;
    for (const [oldest, value] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= value.body.length;
      this.evictions++;
    }
    return true;
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.body.length;
  }

  stats(): HotObjectCacheStats {
    return {
      entries: this.entries.size,
      bytes: this.bytes,
      hits: this.hits,
      misses: this.misses,
      evictions: this.evictions,
    };
  }
}
