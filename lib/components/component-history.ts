import type { ComponentStatus } from "@/lib/components/component-status";
import type { ComponentState } from "@/lib/components/component-step";

/** One stored run of a component's state, as the store reads it back. */
export interface StoredComponentRun extends ComponentState {
  from: string;
  until: string | null;
}

/** A state in a component's exported history. */
export interface ComponentHistoryEntry {
  status: ComponentStatus;
  vendorStatus: string;
  /** The observation time of the first capture that showed the state. */
  from: string;
  /** That of the first capture showing another state or no longer listing the component; null while current. */
  until: string | null;
  vendorChangedAt: string | null;
  inferred: boolean;
}

export interface ComponentHistory {
  id: string;
  /** Its name as last listed. */
  name: string;
  /** Its group's name as last listed; null at the top level. */
  group: string | null;
  history: ComponentHistoryEntry[];
}

export interface QuietDegradation {
  from: string;
  until: string | null;
  /** The vendor's ids of the components degraded or out during it. */
  components: string[];
}

/** Runs are split where the name or the group changed; the history is of states, so such runs join. */
function joinsPrevious(previous: ComponentHistoryEntry | undefined, run: StoredComponentRun): previous is ComponentHistoryEntry {
  return previous !== undefined && previous.until === run.from && run.since !== run.from;
}

/**
 * Each component's history of states from its stored runs, in time order; components in the
 * order they first appeared. A group is named by the name its own component last had.
 */
export function toComponentHistories(runs: readonly StoredComponentRun[]): ComponentHistory[] {
  const byComponent = new Map<string, StoredComponentRun[]>();
  for (const run of runs) {
    const list = byComponent.get(run.componentId) ?? [];
    list.push(run);
    byComponent.set(run.componentId, list);
  }
  const latest = new Map<string, StoredComponentRun>();
  for (const [id, list] of byComponent) {
    list.sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
    const last = list.at(-1);
    if (last) latest.set(id, last);
  }
  const out: Array<ComponentHistory & { first: string }> = [];
  for (const [id, list] of byComponent) {
    const last = latest.get(id);
    if (!last) continue;
    const history: ComponentHistoryEntry[] = [];
    for (const run of list) {
      const previous = history.at(-1);
      if (joinsPrevious(previous, run)) {
        previous.until = run.until;
        continue;
      }
      history.push({ status: run.status, vendorStatus: run.vendorStatus, from: run.from, until: run.until, vendorChangedAt: run.vendorChangedAt, inferred: run.inferred });
    }
    const group = last.groupId === null ? null : (latest.get(last.groupId)?.name ?? last.groupId);
    out.push({ id, name: last.name, group, history, first: list[0]?.from ?? "" });
  }
  out.sort((a, b) => (a.first < b.first ? -1 : a.first > b.first ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return out.map(({ first: _first, ...c }) => c);
}
