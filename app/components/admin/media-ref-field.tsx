import { useTranslation } from "react-i18next";
import type { FieldDefinition } from "~/lib/content-types.ts";
import { isVideoId } from "~/lib/video-source.ts";

type Props = { field: FieldDefinition; value: string; invalid: boolean; describedBy?: string };

/**
 * The one control of the file kinds (audio, video, media file): for now the file's URL, a path on this site
 * or a video library id, typed in. The media pipeline (resumable uploads) replaces this component's inside;
 * every form that has such a field goes through here.
 */
export function MediaRefField({ field, value, invalid, describedBy }: Props) {
  const { t } = useTranslation();
  const id = `field-${field.name}`;
  const openable = value && !isVideoId(value) && /^(?:https?:\/\/|\/(?!\/))/i.test(value);
  return (
    <div className="flex gap-2">
      <input
        id={id}
        name={field.name}
        type="text"
        inputMode="url"
        dir="ltr"
        defaultValue={value}
        maxLength={2048}
        placeholder={t(`newsroom.ui.mediaRefPlaceholder.${field.kind}`)}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        data-testid={`input-${field.name}`}
        className={`block h-11 w-full min-w-0 rounded-md border px-3 text-sm outline-none focus:ring-2 focus:ring-desert-500 ${invalid ? "border-red-600" : "border-sand-300"}`}
      />
      {openable && (
        <a
          href={value}
          target="_blank"
          rel="noopener noreferrer"
          className="inline-flex h-11 shrink-0 items-center rounded-md border border-sand-300 px-3 text-sm hover:bg-sand-100"
        >
          {t("newsroom.ui.open")}
        </a>
      )}
    </div>
  );
}
