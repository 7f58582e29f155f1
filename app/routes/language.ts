import { data, redirect } from "react-router";
import type { Route } from "./+types/language";
import { toSupportedLanguage } from "#domain/language.ts";
import { languageCookie } from "#server/http/language.server.ts";
import { safeRedirectPath } from "#domain/navigation.ts";
import { getConfig } from "#server/config.server.ts";
import { assertSameOrigin } from "#server/auth/session.server.ts";
import { readFormData, RequestBodyError } from "#server/http/request-body.server.ts";

/** The language toggle posts here: keep the choice in a cookie and go back to the page. */
export async function action({ request }: Route.ActionArgs) {
  // Another site must not be able to switch a reader's language behind their back, as with every form.
  assertSameOrigin(request);
  let form: FormData;
  try {
    form = await readFormData(request);
  } catch (error) {
    if (!(error instanceof RequestBodyError)) throw error;
    return data({ error: error.message }, { status: error.status, headers: { "Cache-Control": "no-store" } });
  }
  const lang = toSupportedLanguage(form.get("lang"));
  if (!lang) return data({ error: "Unsupported language" }, { status: 400 });
  const secure = getConfig().publicUrl.startsWith("https://");
  return redirect(safeRedirectPath(form.get("redirectTo")), { headers: { "Set-Cookie": languageCookie(lang, secure) } });
}

export function loader() {
  return redirect("/");
}
