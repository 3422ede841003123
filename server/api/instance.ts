import { createApi } from "@/server/api/api";
import { preflight } from "@/server/api/respond";

/** The API over the web process's database: what app/api/v1's route files export. */
export const api = createApi();
export const OPTIONS = preflight;
