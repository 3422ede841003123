import type { ComponentGrid, ComponentReading } from "@/lib/components/component-grid";
import { knowsWord, type StatusWords, statusFromWord } from "@/lib/components/component-status";
import { joinPath, type SnapshotReader } from "@/scrapers/platforms/snapshot-reader";

/** A component as a format's reader found it, before its word is put in the shared vocabulary. */
export interface RawComponent {
  id: string;
  name: string;
  groupId: string | null;
  isGroup: boolean;
  vendorStatus: string;
  vendorChangedAt: string | null;
}

/**
 * What a format's reader made of one listed component: read (with the path of its word, when not
 * the item's `status`), unreadable but with an id (it keeps its state), or unreadable without one
 * (no component can then be judged gone).
 */
export type ComponentRead = { component: RawComponent; statusPath?: string } | { unreadId: string } | { unreadId: null };

/**
 * A snapshot's component list as a grid, each item read on its own: an unreadable one costs only
 * itself, with a warning naming its path. Undefined (with a warning when it is not a list) when
 * the snapshot has no readable list, or an empty one: that states nothing, so nothing is removed.
 */
export function readComponentGrid(
  reader: SnapshotReader,
  raw: unknown,
  path: string,
  words: StatusWords,
  readOne: (raw: unknown, path: string) => ComponentRead,
): ComponentGrid | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!Array.isArray(raw)) {
    reader.warn(path, `expected a list of components, got ${typeof raw}`);
    return undefined;
  }
  const grid: ComponentGrid = { components: [], unreadIds: [], blind: false };
  addComponentItems(reader, grid, raw, path, words, readOne);
  if (grid.components.length === 0 && grid.unreadIds.length === 0 && !grid.blind) return undefined;
  return grid;
}

/**
 * The items of one list added to a grid being built, each read on its own; a component listed
 * twice (here or in an earlier list) keeps its first listing, as an incident does.
 */
export function addComponentItems(
  reader: SnapshotReader,
  grid: ComponentGrid,
  list: readonly unknown[],
  path: string,
  words: StatusWords,
  readOne: (raw: unknown, path: string) => ComponentRead,
): void {
  const seen = new Set(grid.components.map((c) => c.id));
  list.forEach((item: unknown, i) => {
    const at = joinPath(path, i);
    const read = readOne(item, at);
    if (!("component" in read)) {
      if (read.unreadId === null) grid.blind = true;
      else grid.unreadIds.push(read.unreadId);
      return;
    }
    const c = read.component;
    if (seen.has(c.id)) return;
    seen.add(c.id);
    const status = statusFromWord(c.vendorStatus, words);
    if (!knowsWord(c.vendorStatus, words)) reader.warn(read.statusPath ?? joinPath(at, "status"), `unknown component status ${JSON.stringify(c.vendorStatus.slice(0, 64))}: kept as unknown`);
    const reading: ComponentReading = { ...c, status };
    grid.components.push(reading);
  });
}

/** The id of an item that could not be read, when at least that is a non-empty string or a number. */
export function rawIdOf(raw: unknown): string | null {
  if (typeof raw !== "object" || raw === null) return null;
  const id = (raw as { id?: unknown }).id;
  if (typeof id === "string" && id !== "") return id;
  if (typeof id === "number" && Number.isFinite(id)) return String(id);
  return null;
}
