import { OPERATOR_COOKIE, openSession, SIGN_IN_FAILED_LOCATION } from "@/server/operator-session";

export const dynamic = "force-dynamic";

/** Sign-in: the operator token from the form, exchanged for a session cookie; never echoed or logged. */
export async function POST(request: Request): Promise<Response> {
  const form = await request.formData().catch(() => null);
  const token = form?.get("token");
  const session = typeof token === "string" ? openSession(token) : null;
  if (!session) return new Response(null, { status: 303, headers: { location: SIGN_IN_FAILED_LOCATION, "cache-control": "no-store" } });
  const secure = new URL(request.url).protocol === "https:" ? "; Secure" : "";
  return new Response(null, {
    status: 303,
    headers: {
      location: "/operator",
      "cache-control": "no-store",
      "set-cookie": `${OPERATOR_COOKIE}=${session}; Path=/; HttpOnly; SameSite=Strict; Max-Age=43200${secure}`,
    },
  });
}
