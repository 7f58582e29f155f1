import { redirect } from "react-router";
import type { Route } from "./+types/share-image";
import { getDb } from "#server/db/client.server.ts";
import { shareImage } from "#server/media/share-image.server.ts";
import { cropRatioOf } from "#domain/image-details.ts";

/**
 * GET /social/share?src=<library picture>&f=<x,y>[&r=16x9|4x3|1x1] — a detail page's share image (og:image,
 * twitter:image): the library's picture cropped to 1200×630 around its focal point (server/media/share-image.server.ts);
 * with `r`, the crop its article markup names (JSON-LD `image`, 1200 px wide), any other ratio refused (400). A picture the
 * library does not have, or cannot crop, is answered with a redirect to the picture itself when it is one of
 * this site's paths, and 404 otherwise: nothing is ever fetched from elsewhere.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const src = params.get("src") ?? "";
  const ratio = cropRatioOf(params.get("r"));
  if (ratio === null) {
    return new Response("Unknown ratio", { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  }
  const bytes = src ? await shareImage(await getDb(), src, ratio) : null;
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
