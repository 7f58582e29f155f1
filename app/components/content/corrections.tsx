import { useTranslation } from "#app/lib/i18n.ts";
import type { PageCorrection } from "#domain/detail-view.ts";
import { formatDate } from "#domain/format.ts";
import type { Language } from "#domain/language.ts";
import { textProps } from "#domain/localized.ts";

/**
 * The item's corrections under the story (issue 40, decision 0140): each with «تصحيح» / «Correction» and its date,
 * in the page's language; a French page shows the French text when there is one. Plain HTML (no script).
 */
export function Corrections({ corrections, lang }: { corrections: readonly PageCorrection[] | undefined; lang: Language }) {
  const { t } = useTranslation();
  if (!corrections?.length) return null;
  return (
    <section aria-labelledby="corrections-title" className="mt-8 rounded-lg border-s-4 border-amber-600 bg-amber-50 p-4" data-testid="corrections">
      <h2 id="corrections-title" className="text-lg font-bold">
        {t("corrections.title")}
      </h2>
      <ul className="mt-2 flex flex-col gap-3">
        {corrections.map((c) => {
          const text = lang === "fr" && c.textFr ? c.textFr : c.text;
          return (
            <li key={c.at + text} data-testid="correction">
              <p className="text-sm font-bold text-amber-950">
                {t("corrections.label")} · <time dateTime={c.at}>{formatDate(c.at, lang, "dateTime")}</time>
              </p>
              <p className="mt-1" {...textProps(lang, text)}>
                {text}
              </p>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
