/**
 * The form of one live entry (issue 44): the rich-text editor (the same field and allow-list as the item's body), a
 * picture from the media library with its alternative text, a video of the video library, an embedded post's address,
 * and the key event / pinned / alert choices. The desk uses it twice: to post (`entry-*` test ids) and to edit an
 * entry in place (`edit-*`). Built for a phone: one column, targets of 44 px, the field focused again after a post.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "#app/lib/i18n.ts";
import { RichTextField } from "#app/components/editor/rich-text-field.tsx";
import { LibraryPicker } from "#app/components/admin/library-picker.tsx";
import { localizedText, type LibraryFile } from "#domain/library.ts";
import { LIVE_ENTRY_LIMITS } from "#domain/live.ts";
import { plainTextOf, type EntryDraft } from "./desk-state.ts";

export type { EntryDraft };

export const BLANK_DRAFT: EntryDraft = {
  body: "",
  key_event: false,
  pinned: false,
  push: false,
  image: null,
  image_alt: null,
  video_id: null,
  embed_url: null,
};

type Props = {
  /** Test ids' and field names' prefix: "entry" for the composer, "edit" for an entry edited in place. */
  prefix: "entry" | "edit";
  initial: EntryDraft;
  /** Focus the text as soon as the form shows (after a post, for the next one; when an edit opens). */
  focusBody: boolean;
  busy: boolean;
  /** The server's refusal of the last try, shown under the form. */
  error: string | null;
  submitLabel: string;
  onSubmit: (draft: EntryDraft) => void;
  onCancel?: () => void;
  /** Whether the alert choice is offered (new posts only: an edit never sends one). */
  withPush: boolean;
};

export const bigButton = "inline-flex min-h-11 items-center justify-center rounded-md px-4 text-sm font-bold";
const choiceClass = "flex min-h-11 items-center gap-2 rounded-md border border-sand-200 bg-white px-3 text-sm font-bold";

/** Focuses the body once its editor is there (the rich editor arrives a moment after the plain textarea). */
function useFocusBody(id: string, wanted: boolean) {
  useEffect(() => {
    if (!wanted) return;
    let frames = 0;
    let handle = 0;
    const tryFocus = () => {
      const el = document.getElementById(id);
      if (el) el.focus();
      // Keep trying until the rich editor has taken over (or half a second has gone).
      if ((!el || el.tagName === "TEXTAREA") && frames++ < 30) handle = requestAnimationFrame(tryFocus);
    };
    handle = requestAnimationFrame(tryFocus);
    return () => cancelAnimationFrame(handle);
  }, [id, wanted]);
}

export function EntryForm({ prefix, initial, focusBody, busy, error, submitLabel, onSubmit, onCancel, withPush }: Props) {
  const { t, i18n } = useTranslation();
  const base = useId();
  const bodyId = `${prefix}-body-${base}`;
  const labelId = `${bodyId}-label`;
  const errorId = `${bodyId}-error`;
  const [keyEvent, setKeyEvent] = useState(initial.key_event);
  const [pinned, setPinned] = useState(initial.pinned);
  const [push, setPush] = useState(initial.push);
  const [image, setImage] = useState<{ url: string; alt: string; thumbnail: string | null } | null>(
    initial.image ? { url: initial.image, alt: initial.image_alt ?? "", thumbnail: initial.image } : null,
  );
  const [video, setVideo] = useState<{ id: string; name: string } | null>(initial.video_id ? { id: initial.video_id, name: initial.video_id } : null);
  const [embed, setEmbed] = useState(initial.embed_url ?? "");
  const [picking, setPicking] = useState<"image" | "video" | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const form = useRef<HTMLFormElement>(null);
  useFocusBody(bodyId, focusBody);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const posted = new FormData(event.currentTarget).get(`${prefix}_body`);
    const body = typeof posted === "string" ? posted.trim() : "";
    const text = plainTextOf(body);
    if (text.length < LIVE_ENTRY_LIMITS.minText) return setProblem(t("liveDesk.v.empty"));
    if (text.length > LIVE_ENTRY_LIMITS.maxText) return setProblem(t("liveDesk.v.tooLong", { max: LIVE_ENTRY_LIMITS.maxText }));
    const url = embed.trim();
    if (url && !/^https:\/\/[^\s]+$/i.test(url)) return setProblem(t("liveDesk.v.embed"));
    if (image && !image.alt.trim()) return setProblem(t("liveDesk.v.imageAlt"));
    setProblem(null);
    onSubmit({
      body,
      key_event: keyEvent,
      pinned,
      push: withPush && keyEvent && push,
      image: image?.url ?? null,
      image_alt: image ? image.alt.trim() : null,
      video_id: video?.id ?? null,
      embed_url: url || null,
    });
  };

  const chosen = (file: LibraryFile) => {
    if (picking === "video") setVideo({ id: file.url, name: file.name });
    else setImage({ url: file.url, alt: localizedText(file.alt, i18n.language), thumbnail: file.thumbnail ?? file.url });
  };
  const message = problem ?? error;

  return (
    <form ref={form} onSubmit={submit} noValidate className="space-y-3" data-testid={prefix === "entry" ? "entry-composer" : "edit-form"}>
      <div className="space-y-1">
        <span id={labelId} className="block text-sm font-bold">
          {t(prefix === "entry" ? "liveDesk.composer.body" : "liveDesk.edit.body")}
        </span>
        <RichTextField
          name={`${prefix}_body`}
          id={bodyId}
          labelId={labelId}
          defaultValue={initial.body}
          invalid={Boolean(message)}
          describedBy={message ? errorId : undefined}
        />
      </div>
      <div className="grid gap-2 sm:grid-cols-3">
        <label className={choiceClass}>
          <input type="checkbox" className="size-5" checked={keyEvent} onChange={(e) => setKeyEvent(e.target.checked)} data-testid={`${prefix}-key-event`} />
          {t("liveDesk.composer.keyEvent")}
        </label>
        <label className={choiceClass}>
          <input type="checkbox" className="size-5" checked={pinned} onChange={(e) => setPinned(e.target.checked)} data-testid={`${prefix}-pinned`} />
          {t("liveDesk.composer.pinned")}
        </label>
        {withPush && (
          <label className={`${choiceClass} ${keyEvent ? "" : "opacity-60"}`}>
            <input
              type="checkbox"
              className="size-5"
              checked={keyEvent && push}
              disabled={!keyEvent}
              onChange={(e) => setPush(e.target.checked)}
              aria-describedby={`${bodyId}-push-hint`}
              data-testid={`${prefix}-push`}
            />
            {t("liveDesk.composer.push")}
            <span id={`${bodyId}-push-hint`} className="sr-only">
              {t("liveDesk.composer.pushHint")}
            </span>
          </label>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <button
          type="button"
          onClick={() => setPicking("image")}
          aria-haspopup="dialog"
          className={`${bigButton} border border-sand-300 bg-white hover:bg-sand-100`}
          data-testid={`${prefix}-image`}
        >
          {t(image ? "liveDesk.composer.imageChange" : "liveDesk.composer.image")}
        </button>
        <button
          type="button"
          onClick={() => setPicking("video")}
          aria-haspopup="dialog"
          className={`${bigButton} border border-sand-300 bg-white hover:bg-sand-100`}
          data-testid={`${prefix}-video`}
        >
          {t(video ? "liveDesk.composer.videoChange" : "liveDesk.composer.video")}
        </button>
      </div>
      <LibraryPicker open={picking !== null} onClose={() => setPicking(null)} onChoose={chosen} kinds={picking === "video" ? ["video"] : ["image"]} />
      {image && (
        <div className="flex flex-wrap items-end gap-2 rounded-md border border-sand-200 bg-white p-2" data-testid={`${prefix}-image-chosen`}>
          {image.thumbnail && <img src={image.thumbnail} alt="" className="h-12 w-16 rounded object-cover" />}
          <label className="min-w-40 flex-1 text-xs font-bold">
            {t("liveDesk.composer.imageAlt")}
            <input
              dir="auto"
              value={image.alt}
              onChange={(e) => setImage({ ...image, alt: e.target.value })}
              className="block h-11 w-full rounded-md border border-sand-300 px-2 text-sm"
              data-testid={`${prefix}-image-alt`}
            />
          </label>
          <button type="button" onClick={() => setImage(null)} className={`${bigButton} border border-sand-300`} data-testid={`${prefix}-image-remove`}>
            {t("liveDesk.composer.remove")}
          </button>
        </div>
      )}
      {video && (
        <div className="flex flex-wrap items-center gap-2 rounded-md border border-sand-200 bg-white p-2 text-sm" data-testid={`${prefix}-video-chosen`}>
          <span className="min-w-0 flex-1 truncate" dir="auto">
            {t("liveDesk.composer.videoChosen", { name: video.name })}
          </span>
          <button type="button" onClick={() => setVideo(null)} className={`${bigButton} border border-sand-300`} data-testid={`${prefix}-video-remove`}>
            {t("liveDesk.composer.remove")}
          </button>
        </div>
      )}
      <label className="block text-sm font-bold">
        {t("liveDesk.composer.embed")}
        <input
          type="url"
          inputMode="url"
          dir="ltr"
          value={embed}
          onChange={(e) => setEmbed(e.target.value)}
          placeholder="https://"
          maxLength={2048}
          className="mt-1 block h-11 w-full rounded-md border border-sand-300 bg-white px-3 text-sm"
          data-testid={`${prefix}-embed`}
        />
      </label>
      {message && (
        <p id={errorId} role="alert" className="text-sm font-bold text-red-800" data-testid={`${prefix}-error`}>
          {message}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <button
          type="submit"
          disabled={busy}
          aria-busy={busy || undefined}
          className={`${bigButton} min-w-32 flex-1 bg-desert-600 text-white hover:bg-desert-700 disabled:opacity-60 sm:flex-none`}
          data-testid={`${prefix}-post`}
        >
          {submitLabel}
        </button>
        {onCancel && (
          <button type="button" onClick={onCancel} className={`${bigButton} border border-sand-300 bg-white`} data-testid={`${prefix}-cancel`}>
            {t("admin.cancel")}
          </button>
        )}
      </div>
    </form>
  );
}
