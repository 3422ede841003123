import { OPERATOR_COOKIE } from "@/server/operator-session";

export const dynamic = "force-dynamic";

export function POST(): Response {
  return new Response(null, {
    status: 303,
    headers: { location: "/operator", "cache-control": "no-store", "set-cookie": `${OPERATOR_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0` },
  });
}
