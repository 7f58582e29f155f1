import { data } from "react-router";
import type { Route } from "./+types/not-found";
import { NotFound, notFoundMeta } from "#app/components/layout/error-screens.tsx";
import type { ReadingHandle } from "#app/lib/static-page.ts";
import { getDb } from "#server/db/client.server.ts";
import { movedAddressResponse } from "#server/content/moved-addresses.server.ts";

/** A page with one link: no React in the browser (decision 0131). */
export const handle: ReadingHandle = { hydrate: false };

/**
 * Both /404 and any unknown URL: the 404 page with an HTTP 404 status, unless the address moved (decision 0144):
 * then a 301 to its new address in the same language.
 */
export async function loader({ request }: Route.LoaderArgs) {
  // A database that does not answer leaves the 404 as it is.
  const moved = await getDb()
    .then((db) => movedAddressResponse(db, request))
    .catch(() => null);
  if (moved) throw moved;
  return data(null, { status: 404, headers: { "Cache-Control": "no-store" } });
}

export const meta: Route.MetaFunction = ({ matches }) => notFoundMeta(matches);

export default function NotFoundPage() {
  return <NotFound />;
}
