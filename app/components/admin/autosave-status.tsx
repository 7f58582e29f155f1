/**
 * Where the editor's work is (docs/how-it-works.md, "No lost work"): the save state beside the save button,
 * read out politely as it changes, and the offer of a copy kept earlier (on this device, or the draft's
 * autosave on the server) with the time it was kept.
 */
import { useTranslation } from "#app/lib/i18n.ts";
import { formatDate } from "#domain/format.ts";
import type { Language } from "#domain/language.ts";
import type { SaveState } from "./use-draft-keeper.ts";

const STATE_KEYS: Record<Exclude<SaveState, "clean">, string> = {
  local: "autosave.status.local",
  saving: "autosave.status.saving",
  autosaved: "autosave.status.saved",
  offline: "autosave.status.offline",
  retrying: "autosave.status.retrying",
  signedOut: "autosave.status.signedOut",
};

const TONES: Record<SaveState, string> = {
  clean: "",
  local: "text-ink-soft",
  saving: "text-ink-soft",
  autosaved: "text-emerald-800",
  offline: "text-amber-900",
  retrying: "text-amber-900",
  signedOut: "text-red-800",
};

/** The save state: "saved / saving / offline, kept on this device" (aria-live polite), and a way to sign in again. */
export function SaveStatus({ state, autosavedAt, onSignIn }: { state: SaveState; autosavedAt: string | null; onSignIn: () => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const text = state === "clean" ? "" : t(STATE_KEYS[state], { time: autosavedAt ? formatDate(autosavedAt, lang, "dateTime") : "" });
  return (
    <div className="w-full space-y-2 text-sm">
      <p role="status" aria-live="polite" className={`min-h-5 ${TONES[state]}`} data-testid="save-status" data-state={state}>
        {text}
      </p>
      {state === "signedOut" && (
        <button
          type="button"
          onClick={onSignIn}
          className="rounded-md border border-red-700 px-3 py-1.5 font-bold text-red-800 hover:bg-red-50"
          data-testid="sign-in-again"
        >
          {t("autosave.signInAgain")}
        </button>
      )}
    </div>
  );
}

export type DraftOfferCopy = { source: "local" | "server"; savedAt: string };

/** A copy kept earlier, offered back: restore it into the form, or discard it. */
export function DraftOffer({ copy, onRestore, onDiscard }: { copy: DraftOfferCopy; onRestore: () => void; onDiscard: () => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const local = copy.source === "local";
  const time = formatDate(copy.savedAt, lang, "dateTime");
  return (
    <section
      aria-labelledby="draft-offer-title"
      className="space-y-3 rounded-md border border-s-4 border-amber-500 bg-amber-50 px-4 py-3 text-sm text-amber-950"
      data-testid="draft-offer"
      data-source={copy.source}
    >
      <h2 id="draft-offer-title" className="font-bold">
        {t(local ? "autosave.offerLocalTitle" : "autosave.offerServerTitle")}
      </h2>
      <p>{t(local ? "autosave.offerLocal" : "autosave.offerServer", { time })}</p>
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          onClick={onRestore}
          className="rounded-md bg-desert-600 px-4 py-2 font-bold text-white hover:bg-desert-700"
          data-testid="draft-restore"
        >
          {t("autosave.restore")}
        </button>
        <button
          type="button"
          onClick={onDiscard}
          className="rounded-md border border-amber-600 bg-white px-4 py-2 font-bold hover:bg-amber-100"
          data-testid="draft-discard"
        >
          {t("autosave.discard")}
        </button>
      </div>
    </section>
  );
}
