import { errorMessage } from "@/lib/error-message";
import type { ThrottleAlert } from "@/server/hooks/throttle-telemetry";

const ALERT_TIMEOUT_MS = 5_000;

/**
 * Where operator alerts go: always the log (one line a scope and interval), and, when
 * REDLINE_ALERT_WEBHOOK_URL is set, a JSON POST there. A failed delivery is logged, never thrown:
 * alerting must not take the webhook endpoint down with it.
 */
export function createAlertSender(url: string | undefined, log: (line: string) => void = console.warn) {
  return (alert: ThrottleAlert): void => {
    log(`alert: ${alert.scope} throttled ${alert.throttled} pushes (limit ${alert.limit.ratePerSecond}/s, burst ${alert.limit.burst}) as of ${alert.at}`);
    if (!url) return;
    void fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ type: "redline.throttled", ...alert }),
      signal: AbortSignal.timeout(ALERT_TIMEOUT_MS),
    }).then(
      (response) => {
        if (!response.ok) log(`alert: delivery to the alert webhook answered ${response.status}`);
      },
      (error: unknown) => log(`alert: delivery to the alert webhook failed: ${errorMessage(error)}`),
    );
  };
}
