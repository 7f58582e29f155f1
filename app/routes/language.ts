import { data, redirect } from "react-router";
import type { Route } from "./+types/language";
import { toSupportedLanguage } from "~/lib/language.ts";
import { languageCookie } from "~/lib/language.server.ts";
import { safeRedirectPath } from "~/lib/navigation.ts";
import { getConfig } from "../../server/config.ts";

/** The language toggle posts here: keep the choice in a cookie and go back to the page. */
export async function action({ request }: Route.ActionArgs) {
  const form = await request.formData();
  const lang = toSupportedLanguage(form.get("lang"));
  if (!lang) return data({ error: "Unsupported language" }, { status: 400 });
  const secure = getConfig().publicUrl.startsWith("https://");
  return redirect(safeRedirectPath(form.get("redirectTo")), { headers: { "Set-Cookie": languageCookie(lang, secure) } });
}

export function loader() {
  return redirect("/");
}
