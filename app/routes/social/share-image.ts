import { redirect } from "react-router";
import type { Route } from "./+types/share-image";
import { getDb } from "#server/db/client.server.ts";
import { shareImage } from "#server/media/share-image.server.ts";

/**
 * GET /social/share?src=<library picture>&f=<x,y> — a detail page's share image (og:image, twitter:image): the
 * library's picture cropped to 1200×630 around its focal point (server/media/share-image.server.ts). A picture the
 * library does not have, or cannot crop, is answered with a redirect to the picture itself when it is one of
 * this site's paths, and 404 otherwise: nothing is ever fetched from elsewhere.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const src = params.get("src") ?? "";
  const bytes = src ? await shareImage(await getDb(), src) : null;
  if (!bytes) {
    if (/^\/(?!\/)[^\s\\]*$/.test(src)) return redirect(src, { headers: { "Cache-Control": "no-store" } });
    return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  }
  return new Response(Buffer.from(bytes), {
    headers: {
      "Content-Type": "image/jpeg",
      "Content-Length": String(bytes.byteLength),
      // The address carries the focal point: a new one is a new address for the platforms' caches.
      "Cache-Control": "public, max-age=86400",
    },
  });
}
