/** A capture's place in capture order: by time, then source, then content. */
export interface CaptureKey {
  observedAt: string;
  source: string;
  hash: string;
}

export function compareCaptureKeys(a: CaptureKey, b: CaptureKey): number {
  return a.observedAt < b.observedAt ? -1 : a.observedAt > b.observedAt ? 1 : a.source < b.source ? -1 : a.source > b.source ? 1 : a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0;
}
