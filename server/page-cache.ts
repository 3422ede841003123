/**
 * Rendered pages kept in memory, least recently used first out, bounded in bytes. An entry is
 * served only while the archive is unchanged since it was rendered (the caller's `token`) and it
 * is younger than the time-to-live, which bounds how stale a page's relative times ("3 hours
 * ago") can get.
 */
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
}

interface Entry {
  page: CachedPage;
  token: string;
  storedAt: number;
  bytes: number;
}

export interface PageCacheOptions {
  maxBytes: number;
  maxEntryBytes: number;
  ttlMs: number;
  now?: () => number;
}

export class PageCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  private readonly now: () => number;

  constructor(private readonly options: PageCacheOptions) {
    this.now = options.now ?? Date.now;
  }

  get size(): number {
    return this.entries.size;
  }

  get totalBytes(): number {
    return this.bytes;
  }

  /** The page stored under `key` if it was rendered at `token` and is still fresh. */
  get(key: string, token: string): CachedPage | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.token !== token || this.now() - entry.storedAt > this.options.ttlMs) {
      this.remove(key, entry);
      return undefined;
    }
    // Re-inserting moves the entry to the most recently used end.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.page;
  }

  /** Keep a page; one larger than the per-entry bound is not kept. */
  set(key: string, token: string, page: CachedPage): boolean {
    const bytes = page.body.length + JSON.stringify(page.headers).length + key.length;
    if (bytes > this.options.maxEntryBytes) return false;
    const old = this.entries.get(key);
    if (old) this.remove(key, old);
    this.entries.set(key, { page, token, storedAt: this.now(), bytes });
    this.bytes += bytes;
    for (const [oldestKey, oldest] of this.entries) {
      if (this.bytes <= this.options.maxBytes) break;
      this.remove(oldestKey, oldest);
    }
    return true;
  }

  private remove(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}
