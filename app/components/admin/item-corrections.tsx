import { useState, type FormEvent } from "react";
import { useTranslation } from "#app/lib/i18n.ts";
import type { Language } from "#domain/language.ts";
import { formatDate } from "#domain/format.ts";

/**
 * A published item's corrections under its editor (issue 40, decision 0140): the ones readers already see, oldest
 * first, and for an editor (content.publish) a form that publishes a new one (Arabic text, French optional). It posts
 * JSON to /api/admin/{type}/{id}/corrections; the correction joins the list in place.
 */
export type CorrectionView = { id: number; text: string; text_fr: string | null; created_at: string };

const CORRECTION_MAX = 2000;

export function ItemCorrections({ url, initial, canAdd }: { url: string; initial: readonly CorrectionView[]; canAdd: boolean }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const [corrections, setCorrections] = useState<readonly CorrectionView[]>(initial);
  const [text, setText] = useState("");
  const [textFr, setTextFr] = useState("");
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  if (!canAdd && !corrections.length) return null;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy || !text.trim()) return;
    setBusy(true);
    setFailed(null);
    setDone(false);
    try {
      const res = await fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(textFr.trim() ? { text, text_fr: textFr } : { text }),
        credentials: "same-origin",
      });
      if (res.status !== 201) {
        const code = ((await res.json().catch(() => null)) as { code?: string } | null)?.code;
        throw new Error(code === "NOT_PUBLISHED" ? "corrections.notPublished" : "corrections.failed");
      }
      const correction = (await res.json()) as CorrectionView;
      setCorrections((list) => [...list, correction]);
      setText("");
      setTextFr("");
      setDone(true);
    } catch (error) {
      setFailed(error instanceof Error && error.message.startsWith("corrections.") ? error.message : "corrections.failed");
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="corrections-editor-title" className="space-y-3 rounded-lg border border-amber-300 bg-amber-50 p-4" data-testid="item-corrections">
      <div>
        <h2 id="corrections-editor-title" className="text-lg font-bold">
          {t("corrections.editorTitle")}
        </h2>
        <p className="text-sm text-ink-soft">{t("corrections.hint")}</p>
      </div>
      {corrections.length > 0 && (
        <ol className="space-y-2" data-testid="item-corrections-list">
          {corrections.map((c) => (
            <li key={c.id} className="rounded-md border border-amber-200 bg-white px-3 py-2" data-testid="item-correction">
              <p className="text-xs text-ink-soft">
                {t("corrections.label")} · <time dateTime={c.created_at}>{formatDate(c.created_at, lang, "dateTime")}</time>
              </p>
              <p className="mt-1 text-sm whitespace-pre-line" dir="auto">
                {c.text}
              </p>
              {c.text_fr && (
                <p className="mt-1 text-sm whitespace-pre-line" lang="fr" dir="ltr">
                  {c.text_fr}
                </p>
              )}
            </li>
          ))}
        </ol>
      )}
      {canAdd && (
        <form onSubmit={submit} className="space-y-2" data-testid="correction-form">
          <label htmlFor="correction-text" className="block text-sm font-bold">
            {t("corrections.text")}
          </label>
          <textarea
            id="correction-text"
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            required
            maxLength={CORRECTION_MAX}
            rows={3}
            dir="auto"
            className="w-full rounded-md border border-sand-300 bg-white p-2 text-sm"
            data-testid="correction-text"
          />
          <label htmlFor="correction-text-fr" className="block text-sm font-bold">
            {t("corrections.textFr")}
          </label>
          <textarea
            id="correction-text-fr"
            value={textFr}
            onChange={(e) => setTextFr(e.currentTarget.value)}
            maxLength={CORRECTION_MAX}
            rows={2}
            lang="fr"
            dir="ltr"
            className="w-full rounded-md border border-sand-300 bg-white p-2 text-sm"
            data-testid="correction-text-fr"
          />
          <div className="flex flex-wrap items-center gap-3">
            <button
              type="submit"
              disabled={busy || !text.trim()}
              aria-busy={busy || undefined}
              className="rounded-md bg-desert-600 px-4 py-2 text-sm font-bold text-white hover:bg-desert-700 disabled:opacity-70"
              data-testid="correction-submit"
            >
              {t("corrections.submit")}
            </button>
            {done && (
              <p role="status" className="text-sm font-bold text-palm-700" data-testid="correction-done">
                {t("corrections.done")}
              </p>
            )}
            {failed && (
              <p role="alert" className="text-sm font-bold text-red-800" data-testid="correction-failed">
                {t(failed)}
              </p>
            )}
          </div>
        </form>
      )}
    </section>
  );
}
