import { getServerDb } from "@/db/driver/server-db";
import {
  crossOriginRefused, OPERATOR_COOKIE, openSession, postedFromOwnPages, SESSION_LIFETIME_SECONDS, SIGN_IN_FAILED_LOCATION,
} from "@/server/operator-session";

export const dynamic = "force-dynamic";

/** Sign-in: the operator token from the form, exchanged for a new session cookie; never echoed or logged. */
export async function POST(request: Request): Promise<Response> {
  if (!postedFromOwnPages(request)) return crossOriginRefused();
  const form = await request.formData().catch(() => null);
  const token = form?.get("token");
  const session = typeof token === "string" ? await openSession(getServerDb(), token) : null;
  if (!session) return new Response(null, { status: 303, headers: { location: SIGN_IN_FAILED_LOCATION, "cache-control": "no-store" } });
  const secure = new URL(request.url).protocol === "https:" ? "; Secure" : "";
  return new Response(null, {
    status: 303,
    headers: {
      location: "/operator",
      "cache-control": "no-store",
      "set-cookie": `${OPERATOR_COOKIE}=${session}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${SESSION_LIFETIME_SECONDS}${secure}`,
    },
  });
}
