import { api } from "@/server/api/instance";

export { OPTIONS } from "@/server/api/instance";
export const dynamic = "force-dynamic";
export const GET = api.listVendorQuietDegradations;
