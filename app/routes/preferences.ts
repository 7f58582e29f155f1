import { redirectFrom } from "#app/lib/static-page.ts";
import type { Route } from "./+types/preferences";
import type { FormAnswer } from "#domain/form-answer.ts";
import { isTextSize, isTheme, READING_FORM_ID } from "#domain/reading-preferences.ts";
import { safeRedirectPath } from "#domain/navigation.ts";
import { getConfig } from "#server/config.server.ts";
import { assertSameOrigin } from "#server/auth/session.server.ts";
import { BadRequestError } from "#server/http/errors.server.ts";
import { formAction } from "#server/http/form-action.server.ts";
import { readingCookie, readingPreferencesOf } from "#server/http/reading-preferences.server.ts";

/**
 * The footer's night reading and text size form posts here without JavaScript (decision 0149): keep the choice in
 * a cookie and go back to the page, at the form, so that the reader sees the page change where they chose. A field
 * left out keeps the stored choice; a value that names nothing is refused (400), as every form's bad input is.
 */
export async function action({ request }: Route.ActionArgs) {
  // Another site must not be able to change a reader's pages behind their back, as with every form.
  assertSameOrigin(request);
  return formAction<FormAnswer<"theme" | "size">>(request, { limit: "account" }, (form) => {
    const stored = readingPreferencesOf(request.headers.get("Cookie"));
    const theme = form.get("theme") ?? stored.theme;
    const textSize = form.get("size") ?? stored.textSize;
    if (!isTheme(theme)) throw new BadRequestError("BAD_REQUEST", "Unknown theme");
    if (!isTextSize(textSize)) throw new BadRequestError("BAD_REQUEST", "Unknown text size");
    const secure = getConfig().publicUrl.startsWith("https://");
    const back = `${safeRedirectPath(form.get("redirectTo")).split("#")[0]}#${READING_FORM_ID}`;
    return redirectFrom(back, { headers: { "Set-Cookie": readingCookie({ theme, textSize }, secure) } });
  });
}

export function loader() {
  return redirectFrom("/");
}
