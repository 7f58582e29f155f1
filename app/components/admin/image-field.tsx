import { useEffect, useRef, useState } from "react";
import { useTranslation } from "#app/lib/i18n.ts";
import type { FieldDefinition } from "#domain/content-types/index.ts";
import { imageFileInput, imageLibraryInput, imageRemoveInput } from "#domain/content-form.ts";
import { localizedText, type LibraryFile } from "#domain/library.ts";
import { FileInput } from "#app/components/forms/file-input.tsx";
import { allowedTypes, IMAGE_MIME_TYPES, UNSUPPORTED_FILE_KEY } from "#domain/upload-types.ts";
import { LibraryPickButton } from "./library-picker.tsx";
import { clearFileInput } from "./use-upload.ts";

type Props = {
  field: FieldDefinition;
  /** The saved image's URL ("" for none). */
  value: string;
  invalid: boolean;
  describedBy?: string;
  /** The field's storage folder: where an upload from the library dialog goes. */
  folder?: string;
  /** The control's id (the field's label points at it). */
  id: string;
};

/**
 * An image field of the content form (issue 28): the current image, then either a file of the media library
 * (its URL posted in `{field}__library`, which the server accepts only when the library has it) or a new file
 * (`{field}__file`, stored when the form is saved), and a box to remove the image. The two ways exclude each
 * other: choosing one clears the other. A file of a type the server would refuse is refused at once, with the
 * types taken, and leaves the input; a file the save refused (the field shows the server's message) leaves it too,
 * so that the next save does not send it again.
 */
export function ImageField({ field, value, invalid, describedBy, folder, id }: Props) {
  const { t, i18n } = useTranslation();
  const [chosen, setChosen] = useState<string | null>(null);
  const [picked, setPicked] = useState<LibraryFile | null>(null);
  const [removed, setRemoved] = useState(false);
  const [refused, setRefused] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => () => void (chosen && URL.revokeObjectURL(chosen)), [chosen]);

  const fileInput = () => box.current?.querySelector<HTMLInputElement>(`input[name="${imageFileInput(field.name)}"]`) ?? null;
  useEffect(() => {
    if (!invalid) return;
    clearFileInput(fileInput());
    // fileInput reads the DOM of this field only: the field's name is the whole dependency.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [invalid, field.name]);
  const removeBox = () => box.current?.querySelector<HTMLInputElement>(`input[name="${imageRemoveInput(field.name)}"]`) ?? null;

  function pick(file: LibraryFile) {
    setPicked(file);
    setRemoved(false);
    const remove = removeBox();
    if (remove) remove.checked = false;
    // A file chosen before is dropped: the library's picture is the one saved.
    const input = fileInput();
    if (input?.value) {
      input.value = "";
      input.dispatchEvent(new Event("change", { bubbles: true }));
    }
  }

  const shown = picked?.url ?? chosen ?? (removed ? null : value || null);
  const previewAlt = picked
    ? localizedText(picked.alt, i18n.language) || t("libraryPicker.chosen")
    : t(chosen ? "newsroom.ui.imageChosen" : "newsroom.ui.imageCurrent");
  return (
    <div ref={box} className="space-y-2">
      <input type="hidden" name={field.name} value={value} />
      <input type="hidden" name={imageLibraryInput(field.name)} value={picked?.url ?? ""} data-testid={`library-${field.name}`} />
      {shown && (
        <img src={shown} alt={previewAlt} className="max-h-48 rounded-md border border-sand-200 object-contain" data-testid={`image-preview-${field.name}`} />
      )}
      {picked && (
        <p className="flex flex-wrap items-center gap-2 text-sm" data-testid={`library-chosen-${field.name}`}>
          <span className="min-w-0 truncate" dir="auto">
            {t("libraryPicker.chosenName", { name: picked.name })}
          </span>
          <button type="button" onClick={() => setPicked(null)} className="font-bold text-desert-700 underline" data-testid={`library-undo-${field.name}`}>
            {t("libraryPicker.undoChoice")}
          </button>
        </p>
      )}
      <LibraryPickButton
        name={field.name}
        describedBy={describedBy}
        className="inline-flex h-11 items-center rounded-md border border-desert-600 px-4 text-sm font-bold text-desert-700 hover:bg-sand-100"
        onChoose={pick}
        kinds={["image"]}
        folder={folder}
      />
      <FileInput
        id={id}
        name={imageFileInput(field.name)}
        accept="image/*"
        buttonLabel={t("libraryPicker.uploadFile")}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        data-testid={`input-${field.name}`}
        onChange={(e) => {
          const input = e.currentTarget;
          const file = input.files?.[0];
          setChosen(null);
          // Emptied (by the refusal below too): the refusal's message stays until another file is chosen.
          if (!file) return;
          const taken = IMAGE_MIME_TYPES.includes(file.type);
          setRefused(!taken);
          if (!taken) return clearFileInput(input);
          setChosen(URL.createObjectURL(file));
          setPicked(null);
        }}
      />
      {refused && (
        <p role="alert" className="text-sm font-bold text-red-800" data-testid={`image-refused-${field.name}`}>
          {t(UNSUPPORTED_FILE_KEY, { types: allowedTypes(["image"]) })} {t("desk.upload.cleared")}
        </p>
      )}
      {value && (
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            name={imageRemoveInput(field.name)}
            onChange={(e) => {
              setRemoved(e.currentTarget.checked);
              if (e.currentTarget.checked) setPicked(null);
            }}
            data-testid={`remove-${field.name}`}
          />
          {t("newsroom.ui.imageRemove")}
        </label>
      )}
    </div>
  );
}
