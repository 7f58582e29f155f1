import { redirectFrom } from "#app/lib/static-page.ts";
import type { Route } from "./+types/sign-out";
import { signOut } from "#server/auth/flows.server.ts";
import type { FormAnswer } from "#domain/form-answer.ts";
import { assertSameOrigin, clearSessionCookies } from "#server/auth/session.server.ts";
import { formAction } from "#server/http/form-action.server.ts";

/**
 * Ends the session on the server (the row is deleted) and clears the cookies. A plain form post is sent to
 * the home page; the admin menu's button posts with `mode=fetch` and shows the spec's toasts itself.
 */
export async function action({ request }: Route.ActionArgs) {
  assertSameOrigin(request);
  return formAction<FormAnswer<never>>(request, { limit: "account" }, async (form) => {
    const result = await signOut(request);
    // Whatever better-auth thought of the session, the browser forgets it (all three cookies).
    const headers = await clearSessionCookies();
    if (form.get("mode") === "fetch") {
      headers.set("Cache-Control", "no-store");
      return result.ok || result.code !== "SERVICE_UNAVAILABLE"
        ? Response.json({ ok: true }, { headers })
        : Response.json({ ok: false, error: "Authentication service unavailable" }, { status: 503, headers });
    }
    throw redirectFrom("/", { headers });
  });
}

export function loader() {
  return redirectFrom("/");
}
