import { type NextRequest, NextResponse } from "next/server";
import { describeParamError, paramsSchemaFor, searchParamsToObject } from "@/lib/page-params";
import { renderBadRequestPage } from "@/lib/render/bad-request-html";

/**
 * Bad query parameters get a 400 page that says what was wrong, before any page renders: a page
 * cannot set its own status, so the proxy checks with the same schemas the pages use.
 */
export function proxy(request: NextRequest): NextResponse {
  const schema = paramsSchemaFor(request.nextUrl.pathname);
  if (!schema) return NextResponse.next();
  const result = schema.safeParse(searchParamsToObject(request.nextUrl.searchParams));
  if (result.success) return NextResponse.next();
  return new NextResponse(renderBadRequestPage(describeParamError(result.error), request.nextUrl.pathname), {
    status: 400,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
  });
}

export const config = {
  matcher: ["/((?!_next/|favicon).*)"],
};
