import { maintenanceCalendarRoute } from "@/server/feeds/maintenance-route";

export const dynamic = "force-dynamic";
export const GET = maintenanceCalendarRoute("watchlist");
