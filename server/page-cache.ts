/**
 * Rendered pages kept in memory, least recently used first out, bounded in bytes. A page is kept
 * until an archive change it may show (server/page-scope.ts) or the time-to-live, which bounds
 * how stale its relative times ("3 hours ago") can get. Positions are archive_changes numbers:
 * the cache has seen every change up to `position`, and a page rendered at position p was read
 * from an archive holding at least the changes up to p.
 */
import type { ArchiveChange } from "@/db/queries/archive-changes";
import { type PageScope, showsAnyOf, showsChange } from "@/server/page-scope";

export interface CachedPage {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
  /** The CSP nonce the page was rendered with, replaced by a fresh one each time it is served. */
  nonce?: string | null;
  /**
   * The body cut at each place it holds the nonce (pages do; feeds and API answers carry it only in
   * the header): a reader's copy is these pieces joined by its own nonce, with no text decoded.
   */
  bodyAroundNonce?: Buffer[];
  /** Whether the page shows the banner saying every poll fails; undefined for an answer that never does (feeds, the API). */
  pollingNotice?: boolean;
}

interface Entry {
  page: CachedPage;
  scope: PageScope;
  storedAt: number;
  bytes: number;
}

export interface PageCacheOptions {
  maxBytes: number;
  maxEntryBytes: number;
  ttlMs: number;
  now?: () => number;
}

/** Where the archive's changes are read from (db/queries/archive-changes.ts). */
export interface ArchiveChangeFeed {
  position(): Promise<number>;
  since(seq: number, limit: number): Promise<ArchiveChange[]>;
}

/** Changes remembered for judging renders still in flight; one older than these is not kept. */
const REMEMBERED = 4_096;
/** More changes than this at once (a re-derivation, an import) empty the cache instead. */
const CATCH_UP_LIMIT = 1_000;

export class PageCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  private readonly now: () => number;
  private seen = 0;
  /** Renders from before this position cannot be judged by `recent`, and are not kept. */
  private floor = 0;
  private recent: ArchiveChange[] = [];
  /** The read of the archive's changes under way: one at a time, or two could apply the same changes. */
  private reading: Promise<number> | null = null;
  /** The read after it, shared by every catch-up asked for meanwhile. */
  private nextReading: Promise<number> | null = null;
  /** Pages dropped because a change concerned them, since the cache was made. */
  evictions = 0;

  constructor(private readonly options: PageCacheOptions) {
    this.now = options.now ?? Date.now;
  }

  get size(): number {
    return this.entries.size;
  }

  get totalBytes(): number {
    return this.bytes;
  }

  /** The newest archive change the cache has accounted for. */
  get position(): number {
    return this.seen;
  }

  /**
   * Bring the cache up to the archive's newest change, evicting the pages its changes concern. A
   * read under way may have looked before the caller's change was recorded, so a caller arriving
   * during one waits for the next, which starts when it ends and serves every caller that came
   * meanwhile: many requests at once cost two reads, not one each.
   */
  catchUp(feed: ArchiveChangeFeed): Promise<number> {
    if (this.reading === null) return this.startReading(feed);
    const after = () => {
      this.nextReading = null;
      // A read another caller started since then also began after this caller asked.
      return this.reading ?? this.startReading(feed);
    };
    this.nextReading ??= this.reading.then(after, after);
    return this.nextReading;
  }

  private startReading(feed: ArchiveChangeFeed): Promise<number> {
    const reading = this.readChanges(feed);
    this.reading = reading;
    // Registered before any waiter's: the read is over by the time a waiter looks.
    const over = () => {
      if (this.reading === reading) this.reading = null;
    };
    reading.then(over, over);
    return reading;
  }

  private async readChanges(feed: ArchiveChangeFeed): Promise<number> {
    const newest = await feed.position();
    if (newest === this.seen) return newest;
    // A restored or replaced archive numbers its changes anew.
    if (newest < this.seen) return this.forgetAll(newest);
    const changes = await feed.since(this.seen, CATCH_UP_LIMIT);
    const last = changes.at(-1)?.seq ?? newest;
    // The triggers keep only the newest changes: a gap means some were never seen.
    if (changes[0]?.seq !== this.seen + 1 || (changes.length === CATCH_UP_LIMIT && last < newest)) return this.forgetAll(Math.max(newest, last));
    this.apply(changes);
    return this.seen;
  }

  /** The page stored under `key` if it is still fresh. */
  get(key: string): CachedPage | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (this.now() - entry.storedAt > this.options.ttlMs) {
      this.remove(key, entry);
      return undefined;
    }
    // Re-inserting moves the entry to the most recently used end.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.page;
  }

  /**
   * Keep a page rendered at `renderedAt`. It is not kept when larger than the per-entry bound, or
   * when a change the cache has seen since it was rendered concerns it (the render may predate it).
   */
  set(key: string, scope: PageScope, renderedAt: number, page: CachedPage): boolean {
    const bytes = page.body.length + JSON.stringify(page.headers).length + key.length;
    if (bytes > this.options.maxEntryBytes || renderedAt < this.floor) return false;
    for (let i = this.recent.length - 1; i >= 0 && (this.recent[i]?.seq ?? 0) > renderedAt; i -= 1) {
      const change = this.recent[i];
      if (change && showsChange(scope, change)) return false;
    }
    const old = this.entries.get(key);
    if (old) this.remove(key, old);
    this.entries.set(key, { page, scope, storedAt: this.now(), bytes });
    this.bytes += bytes;
    for (const [oldestKey, oldest] of this.entries) {
      if (this.bytes <= this.options.maxBytes) break;
      this.remove(oldestKey, oldest);
    }
    return true;
  }

  private apply(changes: readonly ArchiveChange[]): void {
    const shows = showsAnyOf(changes);
    for (const [key, entry] of this.entries) {
      if (shows(entry.scope)) {
        this.remove(key, entry);
        this.evictions += 1;
      }
    }
    this.recent.push(...changes);
    if (this.recent.length > REMEMBERED) {
      const dropped = this.recent.splice(0, this.recent.length - REMEMBERED);
      this.floor = dropped.at(-1)?.seq ?? this.floor;
    }
    this.seen = changes.at(-1)?.seq ?? this.seen;
  }

  private forgetAll(position: number): number {
    this.evictions += this.entries.size;
    this.entries.clear();
    this.bytes = 0;
    this.recent = [];
    this.seen = position;
    this.floor = position;
    return position;
  }

  private remove(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}
