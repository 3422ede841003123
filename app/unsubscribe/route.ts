import { getServerDb } from "@/db/driver/server-db";
import { unsubscribeRoute } from "@/server/notify/unsubscribe-route";

export const dynamic = "force-dynamic";
const route = unsubscribeRoute(getServerDb);
export const GET = (request: Request) => route.GET(request);
export const POST = (request: Request) => route.POST(request);
