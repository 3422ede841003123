import { formatRelative, formatUtcMinute } from "@/lib/format";

/** An exact UTC time, with how long ago it was. */
export function UtcTime({ iso, now, relative = true }: { iso: string | null; now?: Date; relative?: boolean }) {
  if (iso === null) return <span className="muted">not present</span>;
  return (
    <>
      <time dateTime={iso} title={iso}>
        {formatUtcMinute(iso)}
      </time>
      {relative && now ? <span className="muted"> ({formatRelative(iso, now)})</span> : null}
    </>
  );
}
