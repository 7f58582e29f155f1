import { getConfig } from "#server/config.server.ts";
import { robotsTxt } from "#server/content/feeds.server.ts";

/** GET /robots.txt: everything public may be crawled except the back-office and the sign-in pages. */
export function loader() {
  return new Response(robotsTxt(getConfig().publicUrl), { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" } });
}
