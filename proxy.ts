import { type NextRequest, NextResponse } from "next/server";
import { archivePathExists } from "@/db/queries/route-exists";
import { getServerDb } from "@/db/driver/server-db";
import { findUnknownVendor } from "@/db/queries/vendor-names";
import { describeParamError, paramsSchemaFor, searchParamsToObject, vendorComparisonParamsSchema } from "@/lib/page-params";
import { renderBadRequestPage } from "@/lib/render/bad-request-html";
import { contentSecurityPolicy, newNonce, referrerPolicyFor, securityHeaders } from "@/lib/security-headers";
import { builtStylesheets } from "@/server/http/built-stylesheets";

/**
 * Before any page renders: every answer gets the security headers, with a fresh nonce that Next
 * puts on its own inline scripts (it reads it from the request's CSP header); archive addresses
 * naming a missing vendor, incident or version get the 404 page; bad query parameters get a 400
 * page that says what was wrong (a page cannot set its own status, so the proxy checks with the
 * same schemas the pages use).
 */
export async function proxy(request: NextRequest): Promise<NextResponse> {
  const nonce = newNonce();
  const security = securityHeaders(nonce, referrerPolicyFor(request.nextUrl.pathname));
  const forwarded = new Headers(request.headers);
  forwarded.set("x-nonce", nonce);
  forwarded.set("content-security-policy", contentSecurityPolicy(nonce));
  const secured = (response: NextResponse) => {
    for (const [name, value] of Object.entries(security)) response.headers.set(name, value);
    return response;
  };
  // Next renders notFound() from a streamed page as an empty shell that only client script
  // fills; an unmatched path gets the full not-found page, server-rendered, with status 404.
  if (request.nextUrl.pathname.startsWith("/vendors/") && !(await archivePathExists(getServerDb(), request.nextUrl.pathname))) {
    return secured(NextResponse.rewrite(new URL("/_redline/not-found", request.url), { request: { headers: forwarded } }));
  }
  const schema = paramsSchemaFor(request.nextUrl.pathname);
  const result = schema?.safeParse(searchParamsToObject(request.nextUrl.searchParams));
  const problem = result && !result.success ? describeParamError(result.error) : await unknownComparedVendor(request.nextUrl);
  if (problem === null) return secured(NextResponse.next({ request: { headers: forwarded } }));
  return secured(
    new NextResponse(renderBadRequestPage(problem, request.nextUrl.pathname, nonce, builtStylesheets()), {
      status: 400,
      headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
    }),
  );
}

/** A comparison naming a vendor the archive does not hold is a bad request, said as such. */
async function unknownComparedVendor(url: URL): Promise<string | null> {
  if (url.pathname !== "/compare") return null;
  const parsed = vendorComparisonParamsSchema.safeParse(searchParamsToObject(url.searchParams));
  const missing = parsed.success && parsed.data.vendors ? await findUnknownVendor(getServerDb(), parsed.data.vendors) : null;
  return missing === null ? null : `vendors: no vendor ${JSON.stringify(missing)} in this archive`;
}

export const config = {
  matcher: ["/((?!_next/|favicon).*)"],
};
