/** What a browser says about where a form was posted from: the request's own headers, verbatim. */
export interface PostedFrom {
  origin: string | null;
  secFetchSite: string | null;
  referer: string | null;
  /** The Host the request was sent to: a page on another site cannot make the browser change it. */
  host: string | null;
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}

/**
 * Whether a state-changing form post came from one of the site's own pages: its Origin (or, from a
 * browser that sends none, its Sec-Fetch-Site, then its Referer) names the host it was sent to or
 * the configured public address. A client that sends none of them is no browser a page can drive.
 */
export function postedFromOwnSite(from: PostedFrom, publicUrl: string | undefined): boolean {
  const own = new Set([from.host?.toLowerCase(), publicUrl === undefined ? null : hostOf(publicUrl)]);
  const named = (url: string) => {
    const host = hostOf(url);
    return host !== null && own.has(host);
  };
  if (from.origin !== null) return named(from.origin);
  if (from.secFetchSite !== null) return from.secFetchSite === "same-origin" || from.secFetchSite === "none";
  return from.referer === null || named(from.referer);
}
