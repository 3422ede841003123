import { type NextRequest, NextResponse } from "next/server";
import { archivePathExists } from "@/db/queries/route-exists";
import { getServerDb } from "@/db/server-db";
import { describeParamError, paramsSchemaFor, searchParamsToObject } from "@/lib/page-params";
import { renderBadRequestPage } from "@/lib/render/bad-request-html";

/**
 * Before any page renders: archive addresses naming a missing vendor, incident or version get
 * the 404 page, and bad query parameters a 400 page that says what was wrong (a page cannot set
 * its own status, so the proxy checks with the same schemas the pages use).
 */
export function proxy(request: NextRequest): NextResponse {
  // Next renders notFound() from a streamed page as an empty shell that only client script
  // fills; an unmatched path gets the full not-found page, server-rendered, with status 404.
  if (request.nextUrl.pathname.startsWith("/vendors/") && !archivePathExists(getServerDb(), request.nextUrl.pathname)) {
    return NextResponse.rewrite(new URL("/_redline/not-found", request.url));
  }
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
