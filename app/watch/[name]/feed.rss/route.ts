import { feedRoute } from "@/server/feeds/feed-route";

export const dynamic = "force-dynamic";
export const GET = feedRoute("watchlist", "rss");
