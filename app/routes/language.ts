import { redirectFrom } from "#app/lib/static-page.ts";
import type { Route } from "./+types/language";
import { toSupportedLanguage } from "#domain/language.ts";
import type { FormAnswer } from "#domain/form-answer.ts";
import { languageCookie } from "#server/http/language.server.ts";
import { safeRedirectPath } from "#domain/navigation.ts";
import { localizedPath } from "#domain/addresses.ts";
import { getConfig } from "#server/config.server.ts";
import { assertSameOrigin } from "#server/auth/session.server.ts";
import { BadRequestError } from "#server/http/errors.server.ts";
import { formAction } from "#server/http/form-action.server.ts";

/**
 * The back-office's language toggle (and pages from before language addresses) posts here: keep the choice in a
 * cookie and go back to the page, in the chosen language's address when it is a reading page (decision 0143; a
 * shared address such as /admin stays as it is). A refusal is the one form answer.
 */
export async function action({ request }: Route.ActionArgs) {
  // Another site must not be able to switch a reader's language behind their back, as with every form.
  assertSameOrigin(request);
  return formAction<FormAnswer<"lang">>(request, {}, (form) => {
    const lang = toSupportedLanguage(form.get("lang"));
    if (!lang) throw new BadRequestError("BAD_REQUEST", "Unsupported language");
    const secure = getConfig().publicUrl.startsWith("https://");
    const back = localizedPath(lang, safeRedirectPath(form.get("redirectTo")));
    return redirectFrom(back, { headers: { "Set-Cookie": languageCookie(lang, secure) } });
  });
}

export function loader() {
  return redirectFrom("/");
}
