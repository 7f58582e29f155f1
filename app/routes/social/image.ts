import { redirect } from "react-router";
import type { Route } from "./+types/image";
import { SOCIAL_COVER_IMAGE } from "#domain/social.ts";
import { socialImage } from "#server/social/feed.server.ts";

/**
 * A post picture from our own origin (docs/decisions/0061-social-images-proxy.md): the reader's browser
 * never contacts Facebook's CDN. An unknown key or a picture that cannot be fetched sends the cover image
 * instead, which also covers readers without JavaScript.
 */
export async function loader({ params }: Route.LoaderArgs) {
  const image = await socialImage(params.key);
  if (!image) return redirect(SOCIAL_COVER_IMAGE, { headers: { "Cache-Control": "no-store" } });
  return new Response(Buffer.from(image.bytes), {
    headers: {
      "Content-Type": image.type,
      "Content-Length": String(image.bytes.byteLength),
      // The key is the hash of the picture's address: a new picture gets a new key.
      "Cache-Control": "public, max-age=86400",
      "Cross-Origin-Resource-Policy": "same-origin",
    },
  });
}
