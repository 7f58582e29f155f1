import { redirect } from "react-router";
import { publicConfig } from "#server/config.server.ts";
import { publisherLogo } from "#server/media/share-image.server.ts";

/**
 * GET /social/logo.png — the publisher's logo of the article markup (JSON-LD `publisher.logo`, app/lib/seo.ts):
 * the site's logo as a raster square (server/media/share-image.server.ts `publisherLogo`). A logo that is not a
 * file of the public folder (an address elsewhere) is answered with a redirect to it.
 */
export async function loader() {
  const { logoUrl } = publicConfig();
  const bytes = await publisherLogo(logoUrl);
  if (!bytes) return redirect(logoUrl, { headers: { "Cache-Control": "no-store" } });
  return new Response(Buffer.from(bytes), {
    headers: { "Content-Type": "image/png", "Content-Length": String(bytes.byteLength), "Cache-Control": "public, max-age=86400" },
  });
}
