import { useRef, useState } from "react";
import type { FetcherWithComponents } from "react-router";
import { CloseDialogButton, DIALOG_WIDTH, ModalDialog } from "#app/components/admin/modal-dialog.tsx";
import { useCount, useTranslation } from "#app/lib/i18n.ts";
import { TAG_NAME_MAX, type TagSummary } from "#domain/tags.ts";
import { inputClass, type TagsAnswer } from "./tags-answer.ts";

type Fetcher = FetcherWithComponents<TagsAnswer>;

/** The message under a field, from the action's refusal (a translation key). */
function FieldError({ id, message }: { id: string; message?: string }) {
  const { t } = useTranslation();
  if (!message) return null;
  return (
    <p id={id} className="mt-1 text-sm text-red-700" data-testid={id}>
      {t(message)}
    </p>
  );
}

function Buttons({ fetcher, label, testId, danger }: { fetcher: Fetcher; label: string; testId: string; danger?: boolean }) {
  const busy = fetcher.state !== "idle";
  return (
    <div className="mt-5 flex flex-wrap justify-end gap-2">
      <CloseDialogButton testId={`${testId}-cancel`} />
      <button
        type="submit"
        disabled={busy}
        aria-busy={busy || undefined}
        className={`rounded-md px-4 py-2 text-sm font-bold text-white disabled:opacity-70 ${danger ? "bg-red-700 hover:bg-red-800" : "bg-desert-600 hover:bg-desert-700"}`}
        data-testid={testId}
      >
        {label}
      </button>
    </div>
  );
}

export function RenameDialog({ dialog: tag, onClose, fetcher }: { dialog: TagSummary | null; onClose: () => void; fetcher: Fetcher }) {
  const { t } = useTranslation();
  const name = useRef<HTMLInputElement>(null);
  const fields = fetcher.data && !fetcher.data.ok && fetcher.data.intent !== "delete" ? fetcher.data.fields : undefined;
  return (
    <ModalDialog
      open={tag !== null}
      onClose={onClose}
      labelledBy="tag-rename-title"
      describedBy="tag-rename-hint"
      width={DIALOG_WIDTH.medium}
      testId="tag-rename-dialog"
      initialFocus={name}
    >
      {tag && (
        <fetcher.Form method="post" key={tag.id}>
          <h2 id="tag-rename-title" className="text-lg font-bold">
            {t("tags.renameTitle")}
          </h2>
          <input type="hidden" name="intent" value="rename" />
          <input type="hidden" name="id" value={tag.id} />
          <label className="mt-4 block">
            <span className="mb-1 block text-sm font-bold">{t("tags.name")}</span>
            <input
              ref={name}
              name="name"
              defaultValue={tag.name}
              maxLength={TAG_NAME_MAX}
              required
              dir="auto"
              className={inputClass}
              aria-invalid={fields?.name ? true : undefined}
              aria-describedby={fields?.name ? "tag-name-error" : undefined}
              data-testid="tag-rename-name"
            />
          </label>
          <FieldError id="tag-name-error" message={fields?.name} />
          <label className="mt-4 block">
            <span className="mb-1 block text-sm font-bold">{t("tags.slug")}</span>
            <input
              name="slug"
              defaultValue={tag.slug}
              dir="auto"
              className={inputClass}
              aria-invalid={fields?.slug ? true : undefined}
              aria-describedby={fields?.slug ? "tag-slug-error" : undefined}
              data-testid="tag-rename-slug"
            />
          </label>
          <FieldError id="tag-slug-error" message={fields?.slug} />
          <p id="tag-rename-hint" className="mt-3 text-sm text-ink-soft">
            {t("tags.renameHint")}
          </p>
          <Buttons fetcher={fetcher} label={t("tags.save")} testId="tag-rename-save" />
        </fetcher.Form>
      )}
    </ModalDialog>
  );
}

export function MergeDialog({ tags, onClose, fetcher }: { tags: TagSummary[] | null; onClose: () => void; fetcher: Fetcher }) {
  const { t } = useTranslation();
  const count = useCount();
  // The most used tag stays unless the editor picks another.
  const first = tags?.length ? [...tags].sort((a, b) => b.count - a.count)[0].id : 0;
  const [into, setInto] = useState(first);
  return (
    <ModalDialog
      open={tags !== null}
      onClose={onClose}
      labelledBy="tag-merge-title"
      describedBy="tag-merge-text"
      width={DIALOG_WIDTH.medium}
      testId="tag-merge-dialog"
    >
      {tags && (
        <fetcher.Form method="post">
          <h2 id="tag-merge-title" className="text-lg font-bold">
            {t("tags.mergeTitle")}
          </h2>
          <p id="tag-merge-text" className="mt-2 text-sm text-ink-soft">
            {t("tags.mergeText")}
          </p>
          <input type="hidden" name="intent" value="merge" />
          {tags
            .filter((tag) => tag.id !== into)
            .map((tag) => (
              <input key={tag.id} type="hidden" name="from" value={tag.id} />
            ))}
          <fieldset className="mt-4">
            <legend className="mb-2 text-sm font-bold">{t("tags.mergeInto")}</legend>
            <ul className="space-y-2">
              {tags.map((tag) => (
                <li key={tag.id}>
                  <label className="flex items-center gap-2">
                    <input
                      type="radio"
                      name="into"
                      value={tag.id}
                      checked={into === tag.id}
                      onChange={() => setInto(tag.id)}
                      className="h-5 w-5"
                      data-testid="tag-merge-into"
                    />
                    <span className="font-bold" dir="auto">
                      {tag.name}
                    </span>
                    <span className="text-sm text-ink-soft">{count("tags.items", tag.count)}</span>
                  </label>
                </li>
              ))}
            </ul>
          </fieldset>
          <Buttons fetcher={fetcher} label={t("tags.mergeConfirm")} testId="tag-merge-confirm" />
        </fetcher.Form>
      )}
    </ModalDialog>
  );
}

export function DeleteDialog({ tag, onClose, fetcher }: { tag: TagSummary | null; onClose: () => void; fetcher: Fetcher }) {
  const { t } = useTranslation();
  const count = useCount();
  return (
    <ModalDialog
      open={tag !== null}
      onClose={onClose}
      labelledBy="tag-delete-title"
      describedBy="tag-delete-text"
      testId="tag-delete-dialog"
      width={DIALOG_WIDTH.narrow}
    >
      {tag && (
        <fetcher.Form method="post">
          <h2 id="tag-delete-title" className="text-lg font-bold">
            {t("admin.confirmDeleteTitle")}
          </h2>
          <p id="tag-delete-text" className="mt-2 text-sm text-ink-soft" data-testid="tag-delete-text">
            {t("tags.deleteText", { items: count("tags.items", tag.count) })}
          </p>
          <p className="mt-3 rounded-md bg-sand-50 px-3 py-2 text-sm font-bold" dir="auto" data-testid="tag-delete-name">
            {tag.name}
          </p>
          <input type="hidden" name="intent" value="delete" />
          <input type="hidden" name="id" value={tag.id} />
          <Buttons fetcher={fetcher} label={t("tags.delete")} testId="tag-delete-confirm" danger />
        </fetcher.Form>
      )}
    </ModalDialog>
  );
}
