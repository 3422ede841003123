/** An export as a download: the right type, and a file name safe in any shell or file system. */
export function downloadResponse(body: string, baseName: string, format: "md" | "json"): Response {
  const safe = baseName.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 120) || "export";
  return new Response(body, {
    headers: {
      "content-type": format === "md" ? "text/markdown; charset=utf-8" : "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="${safe}.${format}"`,
      "x-content-type-options": "nosniff",
    },
  });
}
