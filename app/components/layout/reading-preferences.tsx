import { useLocation, useRouteLoaderData } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import type { RootLoaderData } from "#app/lib/root-data.ts";
import { DEFAULT_READING, READING_FORM_ID, TEXT_SIZES, THEMES } from "#domain/reading-preferences.ts";
import preferencesScript from "#app/enhance/reading-preferences.js?url&no-inline";

const CHOICE =
  "cursor-pointer rounded-full border border-white/25 px-3 py-1 hover:border-white has-checked:border-desert-500 has-checked:bg-desert-700 has-checked:text-white has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-white";

/**
 * Night reading and text size (issue 46, decision 0149), in the footer of every reading page: a plain form that
 * posts to /preferences and comes back here without JavaScript; with it, app/enhance/reading-preferences.js (loaded
 * by app/enhance/reading.js on the form's first focus) applies a choice as it is made, without a reload. The page was
 * rendered with the reader's choice (root loader), so it is the one checked.
 */
export function ReadingPreferences() {
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  const current = useRouteLoaderData<RootLoaderData>("root")?.reading ?? DEFAULT_READING;
  return (
    <form
      id={READING_FORM_ID}
      method="post"
      action="/preferences"
      aria-label={t("theme.title")}
      data-reading-preferences=""
      data-enhance-src={preferencesScript}
      data-testid="reading-preferences"
      className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-6 gap-y-3 px-4 pt-4 text-sm"
    >
      <input type="hidden" name="redirectTo" value={pathname + search} />
      <fieldset className="flex flex-wrap items-center gap-2">
        <legend className="float-start me-1 font-bold text-white">{t("theme.theme")}</legend>
        {THEMES.map((theme) => (
          <label key={theme} className={CHOICE}>
            <input type="radio" name="theme" value={theme} defaultChecked={current.theme === theme} className="sr-only" />
            {t(`theme.${theme}`)}
          </label>
        ))}
      </fieldset>
      <fieldset className="flex flex-wrap items-center gap-2">
        <legend className="float-start me-1 font-bold text-white">{t("theme.textSize")}</legend>
        {TEXT_SIZES.map((size) => (
          <label key={size} className={CHOICE}>
            <input type="radio" name="size" value={size} defaultChecked={current.textSize === size} className="sr-only" />
            {t(`theme.${size}`)}
          </label>
        ))}
      </fieldset>
      <button type="submit" className="rounded-md bg-desert-600 px-3 py-1 font-bold text-white hover:bg-desert-700" data-testid="reading-apply">
        {t("theme.apply")}
      </button>
    </form>
  );
}
