import type { z } from "zod";
import { printable } from "@/lib/error-message";
import type { ComponentGrid } from "@/lib/components/component-grid";
import type { Observation, ParsedSnapshot, ReadWarning, UnreadIncident } from "@/lib/derive/observation";
import type { ParseContext } from "@/scrapers/platforms/platform";

/** "incidents[3].incident_updates[0].created_at" from a zod issue path. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out === "" ? "(root)" : out;
}

/** A path inside another: "incidents[3]" + ["name"] → "incidents[3].name". */
export function joinPath(base: string, ...keys: ReadonlyArray<PropertyKey>): string {
  let out = base;
  for (const key of keys) out += typeof key === "number" ? `[${key}]` : out === "" ? String(key) : `.${String(key)}`;
  return out;
}

export type ReadFields<S extends z.ZodRawShape> = { [K in keyof S]?: z.output<S[K]> };

export interface ReadObject<S extends z.ZodRawShape> {
  values: ReadFields<S>;
  /** Keys whose value could not be read (each with a warning). */
  failed: Set<keyof S & string>;
}

/** Whether a value is a JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Reads a snapshot element by element, so that one malformed element costs only itself: each
 * field of an object is read by its own schema, each item of a list on its own. What cannot be
 * read is left out with a warning naming its path in the payload.
 */
export class SnapshotReader {
  readonly warnings: ReadWarning[] = [];
  readonly unread: UnreadIncident[] = [];
  readonly observations: Observation[] = [];
  /** The component grid, when the snapshot states one. */
  grid: ComponentGrid | undefined;

  constructor(readonly context: ParseContext) {}

  warn(path: string, message: string): void {
    this.warnings.push({ path: printable(path), message: printable(message) });
  }

  /** Each field of an object by its own schema; null (with a warning) when the value is no object. */
  fields<S extends z.ZodRawShape>(shape: S, raw: unknown, path: string): ReadObject<S> | null {
    if (!isRecord(raw)) {
      this.warn(path, `expected an object, got ${raw === null ? "null" : Array.isArray(raw) ? "an array" : typeof raw}`);
      return null;
    }
    const values: ReadFields<S> = {};
    const failed = new Set<keyof S & string>();
    for (const key of Object.keys(shape) as Array<keyof S & string>) {
      const schema = shape[key] as z.ZodType;
      const result = schema.safeParse(raw[key]);
      if (result.success) {
        Object.assign(values, { [key]: result.data });
        continue;
      }
      failed.add(key);
      const issue = result.error.issues[0];
      this.warn(joinPath(path, key, ...(issue?.path ?? [])), issue?.message ?? "unreadable");
    }
    return { values, failed };
  }

  /**
   * Each item of a list by the item schema, in order; unreadable items are skipped. Null (with a
   * warning) when the value is neither a list nor absent; absent or null reads as an empty list.
   */
  items<T>(schema: z.ZodType<T>, raw: unknown, path: string): { items: T[]; skipped: number } | null {
    if (raw === undefined || raw === null) return { items: [], skipped: 0 };
    if (!Array.isArray(raw)) {
      this.warn(path, `expected a list, got ${typeof raw}`);
      return null;
    }
    const items: T[] = [];
    let skipped = 0;
    raw.forEach((item: unknown, i) => {
      const result = schema.safeParse(item);
      if (result.success) items.push(result.data);
      else {
        skipped += 1;
        const issue = result.error.issues[0];
        this.warn(joinPath(path, i, ...(issue?.path ?? [])), issue?.message ?? "unreadable");
      }
    });
    return { items, skipped };
  }

  /** An incident the snapshot lists but that could not be read; `id` when at least that was readable. */
  unreadIncident(id: string | null, path: string, message?: string): void {
    if (message !== undefined) this.warn(path, message);
    this.unread.push({ id, path });
  }

  observe(observation: Observation): void {
    this.observations.push(observation);
  }

  snapshot(): ParsedSnapshot {
    const snapshot: ParsedSnapshot = { observations: this.observations, unread: this.unread, warnings: this.warnings };
    if (this.grid) snapshot.grid = this.grid;
    return snapshot;
  }
}
