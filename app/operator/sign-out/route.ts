import { cookies } from "next/headers";
import { getServerDb } from "@/db/driver/server-db";
import { crossOriginRefused, endAllSessions, endSession, isOperatorSession, OPERATOR_COOKIE, postedFromOwnPages } from "@/server/operator-session";

export const dynamic = "force-dynamic";

/** Sign-out: ends this session wherever its cookie is; with `everywhere`, every operator session (a signed-in one may ask). */
export async function POST(request: Request): Promise<Response> {
  if (!postedFromOwnPages(request)) return crossOriginRefused();
  const db = getServerDb();
  const cookie = (await cookies()).get(OPERATOR_COOKIE)?.value;
  const form = await request.formData().catch(() => null);
  if (form?.get("scope") === "everywhere" && (await isOperatorSession(db, cookie))) await endAllSessions(db);
  else await endSession(db, cookie);
  return new Response(null, {
    status: 303,
    headers: { location: "/operator", "cache-control": "no-store", "set-cookie": `${OPERATOR_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0` },
  });
}
