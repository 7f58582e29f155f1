import { useTranslation } from "#app/lib/i18n.ts";
import type { Language } from "#domain/language.ts";
import { textProps } from "#domain/localized.ts";

/**
 * A program's or podcast's full text, closed until the reader opens it: a native <details>, so it opens
 * without JavaScript and with the keyboard. Plain text with blank lines between paragraphs (the editor's
 * textarea), rendered by React, so nothing stored can become markup. The text keeps its own language and
 * direction on a page in another language.
 */
export function Transcript({ text, lang }: { text: string; lang: Language }) {
  const { t } = useTranslation();
  const paragraphs = text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  if (!paragraphs.length) return null;
  return (
    <details className="mt-8 rounded-lg border border-sand-200 bg-white" data-testid="transcript">
      <summary className="cursor-pointer select-none px-4 py-3 font-bold hover:bg-sand-100 focus-visible:outline-2 focus-visible:outline-desert-600">
        {t("detail.transcript")}
      </summary>
      <div className="space-y-4 border-t border-sand-200 px-4 py-4 leading-loose" data-testid="transcript-text" {...textProps(lang, text)}>
        {paragraphs.map((p, i) => (
          <p key={i} className="whitespace-pre-line">
            {p}
          </p>
        ))}
      </div>
    </details>
  );
}
