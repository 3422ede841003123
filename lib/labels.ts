/**
 * Stored values as a reader reads them. Vendors' statuses are free strings (`service_information`,
 * `degraded_performance`, `IN_PROGRESS`); Redline's own enums (`left-feed`) are identifiers. A page
 * shows the label, never the raw value.
 */

const IMPACT_LABELS: Record<string, string> = {
  none: "No impact",
  minor: "Minor",
  major: "Major",
  critical: "Critical",
  maintenance: "Maintenance",
};

/**
 * Codes the vendor's own page words otherwise than humanizeValue would. Google Cloud's read well
 * humanized, as its dashboard's legend has them: "Service information", not a bare "Information"
 * that reads as no status at all.
 */
const STATUS_LABELS: Record<string, string> = {
  informational: "Informational message",
  in_progress: "In progress",
  under_maintenance: "Under maintenance",
  degraded_performance: "Degraded performance",
  partial_outage: "Partial outage",
  major_outage: "Major outage",
  postmortem: "Postmortem",
};

const PRESENCE_LABELS: Record<string, string> = {
  listed: "Listed in the feed",
  "left-feed": "No longer in the feed",
  deleted: "Deleted by the vendor",
};

/** The formats Redline reads, as their makers name them (and the endpoint, where a platform has several). */
const PLATFORM_LABELS: Record<string, string> = {
  statuspage: "Statuspage",
  "statuspage-atom": "Statuspage Atom feed",
  "statuspage-atom-fallback": "Statuspage Atom feed",
  "statuspage-rss": "Statuspage RSS feed",
  "statuspage-summary": "Statuspage summary.json",
  "statuspage-incidents": "Statuspage incidents.json",
  "statuspage-incident": "Statuspage incident JSON",
  "statuspage-incident-page": "Statuspage incident page",
  gcp: "Google Cloud",
  aws: "AWS",
  "aws-legacy": "AWS data.json",
  azure: "Azure",
  "azure-rss": "Azure RSS feed",
  betterstack: "Better Stack",
  "betterstack-index": "Better Stack",
  "betterstack-rss": "Better Stack RSS feed",
  "cachet-v2": "Cachet v2",
  "cachet-v3": "Cachet v3",
  incidentio: "incident.io",
  "incidentio-feed": "incident.io feed",
  "incidentio-incidents": "incident.io",
  "incidentio-widget": "incident.io widget",
  instatus: "Instatus",
  "instatus-summary": "Instatus",
  rss: "RSS or Atom feed",
  slack: "Slack",
  "slack-history": "Slack history",
};

/** "service_information" → "Service information", "IN_PROGRESS" → "In progress", "incidentUpdate" → "Incident update". */
export function humanizeValue(raw: string): string {
  const words = raw
    .trim()
    .replace(/([a-z\d])([A-Z])/g, "$1 $2")
    .replace(/[_\-\s]+/g, " ")
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** An impact as a badge says it; a feed that states none gets "Impact not stated", not "unknown". */
export function impactLabel(impact: string | null): string {
  if (impact === null || impact === "" || impact === "unknown") return "Impact not stated";
  return IMPACT_LABELS[impact] ?? humanizeValue(impact);
}

export function statusLabel(status: string | null): string {
  if (status === null || status.trim() === "") return "Status not stated";
  const key = humanizeValue(status).toLowerCase().replace(/ /g, "_");
  return STATUS_LABELS[key] ?? humanizeValue(status);
}

export function presenceLabel(presence: string | null): string {
  if (presence === null) return "Not present";
  return PRESENCE_LABELS[presence] ?? humanizeValue(presence);
}

/** A platform identifier (`statuspage-summary`) as a reader reads it. */
export function platformLabel(platform: string): string {
  return PLATFORM_LABELS[platform] ?? humanizeValue(platform);
}
