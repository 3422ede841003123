import { renderVendorMarkdownAt } from "@/lib/render/vendor-markdown";

/**
 * A postmortem's Markdown through the one vendor-Markdown sanitizer, its highest heading at
 * `topLevel`, just below the page's own.
 */
export function renderVendorMarkdown(text: string, topLevel: 2 | 3 | 4 = 2): string {
  return renderVendorMarkdownAt(text, topLevel);
}
