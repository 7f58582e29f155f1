import { useState, type FormEvent } from "react";
import { useTranslation } from "#app/lib/i18n.ts";
import type { Language } from "#domain/language.ts";
import { formatDate } from "#domain/format.ts";

/**
 * The item's internal notes (issue 40, decision 0139) under its editor: the thread, oldest first, each with its
 * author and time, and a form to add one. The form posts to /api/admin/{type}/{id}/notes: with JavaScript as
 * JSON (the note joins the thread in place), without it as a plain form post that comes back here (303).
 */
export type NoteView = { id: number; author: { id: string | null; name: string }; text: string; at: string };

export const NOTE_MAX_LENGTH = 2000;

export function NoteThread({ notes, testId = "notes-thread" }: { notes: readonly NoteView[]; testId?: string }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  if (!notes.length) {
    return (
      <p className="text-sm text-ink-soft" data-testid="notes-empty">
        {t("itemNotes.empty")}
      </p>
    );
  }
  return (
    <ol className="space-y-3" data-testid={testId}>
      {notes.map((note) => (
        <li key={note.id} className="rounded-md border border-sand-200 bg-white px-3 py-2" data-testid="note">
          <p className="text-xs text-ink-soft">
            <span className="font-bold text-ink" data-testid="note-author">
              {note.author.name}
            </span>{" "}
            · <time dateTime={note.at}>{formatDate(note.at, lang, "dateTime")}</time>
          </p>
          <p className="mt-1 text-sm whitespace-pre-line" dir="auto" data-testid="note-text">
            {note.text}
          </p>
        </li>
      ))}
    </ol>
  );
}

export function ItemNotes({ url, initial }: { url: string; initial: readonly NoteView[] }) {
  const { t } = useTranslation();
  const [notes, setNotes] = useState<readonly NoteView[]>(initial);
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy || !text.trim()) return;
    setBusy(true);
    setFailed(false);
    try {
      const res = await fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ text }),
        credentials: "same-origin",
      });
      if (res.status !== 201) throw new Error(String(res.status));
      const note = (await res.json()) as NoteView;
      setNotes((list) => [...list, note]);
      setText("");
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section id="notes" aria-labelledby="notes-title" className="space-y-3 rounded-lg border border-sand-200 bg-sand-50 p-4" data-testid="notes">
      <div>
        <h2 id="notes-title" className="text-lg font-bold">
          {t("itemNotes.title")}
        </h2>
        <p className="text-sm text-ink-soft">{t("itemNotes.hint")}</p>
      </div>
      <NoteThread notes={notes} />
      <form method="post" action={url} onSubmit={(event) => void submit(event)} className="space-y-2" data-testid="note-form">
        <label htmlFor="note-text" className="block text-sm font-bold">
          {t("itemNotes.label")}
        </label>
        <textarea
          id="note-text"
          name="text"
          required
          maxLength={NOTE_MAX_LENGTH}
          rows={3}
          value={text}
          onChange={(event) => setText(event.target.value)}
          className="block w-full rounded-md border border-sand-300 bg-white px-3 py-2 text-sm"
          data-testid="note-input"
        />
        {failed && (
          <p role="alert" className="text-sm font-bold text-red-800" data-testid="note-failed">
            {t("itemNotes.failed")}
          </p>
        )}
        <button
          type="submit"
          disabled={busy}
          aria-busy={busy || undefined}
          className="rounded-md border border-sand-300 bg-white px-3 py-1.5 text-sm font-bold hover:bg-sand-100"
          data-testid="note-submit"
        >
          {busy ? t("itemNotes.sending") : t("itemNotes.submit")}
        </button>
      </form>
    </section>
  );
}
