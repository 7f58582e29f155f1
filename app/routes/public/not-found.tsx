import { data } from "react-router";
import type { Route } from "./+types/not-found";
import { NotFound, notFoundMeta } from "#app/components/layout/error-screens.tsx";
import type { ReadingHandle } from "#app/lib/static-page.ts";

/** A page with one link: no React in the browser (decision 0131). */
export const handle: ReadingHandle = { hydrate: false };

/** Both /404 and any unknown URL: the 404 page with an HTTP 404 status. */
export function loader(_: Route.LoaderArgs) {
  return data(null, { status: 404, headers: { "Cache-Control": "no-store" } });
}

export const meta: Route.MetaFunction = ({ matches }) => notFoundMeta(matches);

export default function NotFoundPage() {
  return <NotFound />;
}
