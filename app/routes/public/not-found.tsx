import { data } from "react-router";
import type { Route } from "./+types/not-found";
import { NotFound, notFoundMeta } from "#app/components/layout/error-screens.tsx";

/** Both /404 and any unknown URL: the 404 page with an HTTP 404 status. */
export function loader(_: Route.LoaderArgs) {
  return data(null, { status: 404, headers: { "Cache-Control": "no-store" } });
}

export const meta: Route.MetaFunction = ({ matches }) => notFoundMeta(matches);

export default function NotFoundPage() {
  return <NotFound />;
}
