/** A URL's user name and password, wherever a URL appears in the text: `scheme://user:pw@`. */
const USERINFO = /\b([a-z][a-z\d+.-]*:\/\/)[^\s/?#]*@/gi;

/**
 * A URL, or a message that quotes URLs, as Redline shows it to readers: without the user name and
 * password a URL may carry (`https://user:pw@host/` → `https://host/`), so a page never publishes them.
 */
export function withoutCredentials(text: string): string {
  return text.replace(USERINFO, "$1");
}
