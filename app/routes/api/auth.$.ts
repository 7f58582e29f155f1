import type { Route } from "./+types/auth.$";
import { getAuth } from "../../../server/auth/auth.ts";

/**
 * better-auth's own HTTP API (/api/auth/*): sign-in, sign-up, sessions, verification and reset for scripts
 * and the browser. The request passes as it came; server/app.ts has set the client-address header on it.
 */
export async function loader({ request }: Route.LoaderArgs) {
  return (await getAuth()).handler(request);
}

export async function action({ request }: Route.ActionArgs) {
  return (await getAuth()).handler(request);
}
