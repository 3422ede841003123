import { unknownRoute } from "@/server/api/respond";

export const dynamic = "force-dynamic";
export const GET = unknownRoute;
export const POST = unknownRoute;
export const PUT = unknownRoute;
export const PATCH = unknownRoute;
export const DELETE = unknownRoute;
