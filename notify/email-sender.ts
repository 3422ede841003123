/**
 * E-mail over SMTP with nodemailer: STARTTLS where the server offers it (smtp://), implicit TLS
 * for smtps://. SMTP replies map onto the retry policy: 2xx delivered, 4xx retry, 5xx failed.
 * Without REDLINE_SMTP_URL mail waits (retry), so it goes out once the operator configures it.
 */
import nodemailer from "nodemailer";
import { renderEmailMessage } from "@/lib/notify/email-message";
import type { SendResult } from "@/lib/notify/send-result";
import { unsubscribeUrl } from "@/lib/notify/unsubscribe-token";
import type { Sender } from "@/notify/sender";

export interface EmailOptions {
  smtpUrl: string | undefined;
  from: string;
  /** The public address unsubscribe links point at; null without one (a List-Unsubscribe to localhost is a button that cannot work). */
  origin: string | null;
  connectTimeoutMs: number;
  responseTimeoutMs: number;
}

function resultOfError(error: unknown): SendResult {
  const e = error as { responseCode?: number; message?: string; code?: string };
  const code = typeof e.responseCode === "number" ? e.responseCode : null;
  const message = `SMTP: ${e.message ?? String(error)}`;
  if (code !== null && code >= 500) return { outcome: "failed", statusCode: code, retryAfterMs: null, error: message };
  return { outcome: "retry", statusCode: code, retryAfterMs: null, error: message };
}

export function emailSender(options: EmailOptions): Sender {
  const transport = options.smtpUrl
    ? nodemailer.createTransport({
        url: options.smtpUrl,
        connectionTimeout: options.connectTimeoutMs,
        greetingTimeout: options.connectTimeoutMs,
        socketTimeout: options.responseTimeoutMs,
      } as Parameters<typeof nodemailer.createTransport>[0])
    : null;
  return async ({ subscription, message }) => {
    if (!transport) return { outcome: "retry", statusCode: null, retryAfterMs: null, error: "REDLINE_SMTP_URL is not set: the mail waits until it is" };
    const to = decodeURIComponent(subscription.target.replace(/^mailto:/i, ""));
    const parts = renderEmailMessage(message, { unsubscribeUrl: options.origin === null ? null : unsubscribeUrl(options.origin, subscription.id, subscription.secret) });
    try {
      const info = await transport.sendMail({
        from: options.from,
        to,
        subject: parts.subject,
        text: parts.text,
        html: parts.html,
        headers: parts.headers,
        messageId: `<${message.webhookId}@redline>`,
      });
      const code = Number(/^(\d{3})/.exec(String(info.response))?.[1] ?? "250");
      return { outcome: "delivered", statusCode: code, retryAfterMs: null, error: null };
    } catch (error) {
      return resultOfError(error);
    }
  };
}
