import { formatUtcMinute } from "@/lib/format";
import type { Postmortem } from "@/lib/incident";
import { renderVendorMarkdown } from "@/lib/render/postmortem-html";

/** A vendor's postmortem: its Markdown rendered through the sanitizer, never as raw HTML. */
export function PostmortemBody({ postmortem, headingLevel = 3 }: { postmortem: Postmortem; headingLevel?: 3 | 4 }) {
  return (
    <div className="postmortem">
      {postmortem.publishedAt ? <p className="muted small">Published {formatUtcMinute(postmortem.publishedAt)}</p> : null}
      <div className="vendor-markdown" dangerouslySetInnerHTML={{ __html: renderVendorMarkdown(postmortem.body, headingLevel) }} />
    </div>
  );
}
