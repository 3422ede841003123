import { type NextRequest, NextResponse } from "next/server";
import { describeParamError, paramsSchemaFor, searchParamsToObject } from "@/lib/page-params";

/**
 * Bad query parameters get a 400 page that says what was wrong, before any page renders: pages
 * cannot set a status of their own, so the proxy checks with the same schemas they use.
 */
export function proxy(request: NextRequest): NextResponse {
  const schema = paramsSchemaFor(request.nextUrl.pathname);
  if (!schema) return NextResponse.next();
  const result = schema.safeParse(searchParamsToObject(request.nextUrl.searchParams));
  if (result.success) return NextResponse.next();
  const target = new URL("/bad-request", request.url);
  target.searchParams.set("reason", describeParamError(result.error).slice(0, 300));
  target.searchParams.set("path", request.nextUrl.pathname.slice(0, 300));
  return NextResponse.rewrite(target, { status: 400 });
}

export const config = {
  matcher: ["/((?!_next/|favicon|bad-request).*)"],
};
