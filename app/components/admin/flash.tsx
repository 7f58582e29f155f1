import { useEffect } from "react";
import { useTranslation } from "#app/lib/i18n.ts";
import type { TFunction } from "i18next";
import { useToast, type ToastInput } from "#app/components/ui/toast.tsx";
import { definitionOf, type ContentType } from "#domain/content-types/index.ts";

/** What a save, delete or restore left for the next page (server/content/newsroom/flash.server.ts). */
export type Flash = {
  kind: "created" | "updated" | "deleted" | "restored";
  type: ContentType;
  imageFailed?: { key: string; values: Record<string, string | number> };
  missingAlt?: number;
};

/** The success toast of back-office.md §8 for a flash. */
function successOf(flash: Flash, t: TFunction): ToastInput {
  const def = definitionOf(flash.type);
  switch (flash.kind) {
    case "deleted":
      return { title: t("newsroom.ui.deletedTitle"), description: t("newsroom.ui.deleted"), variant: "success" };
    case "restored":
      return { title: t("newsroom.ui.successTitle"), description: t("newsroom.ui.restored"), variant: "success" };
    default:
      return { title: t("newsroom.ui.successTitle"), description: t(flash.kind === "created" ? def.labels.created : def.labels.updated), variant: "success" };
  }
}

/**
 * The warning of an item saved without its image (§8: 'خطأ في رفع الصورة' …), else of one published with pictures
 * that have no alt text (issue 39), or null.
 */
function warningOf(flash: Flash, t: TFunction): ToastInput | null {
  if (!flash.imageFailed && flash.missingAlt) {
    // It stands for the success toast too (one at a time), so it says §8's words first.
    return {
      title: t("newsroom.ui.altMissingTitle"),
      description: `${successOf(flash, t).description} ${t("newsroom.ui.altMissingPublished", { n: flash.missingAlt })}`,
      variant: "warning",
      duration: 8000,
    };
  }
  if (!flash.imageFailed) return null;
  return {
    title: t("newsroom.ui.imageFailedTitle"),
    description: t(`newsroom.ui.imageFailed.${flash.type}`, { reason: t(flash.imageFailed.key, flash.imageFailed.values) }),
    variant: "warning",
    duration: 6000,
  };
}

/** Shows a flash once, as a toast. */
export function useNewsroomFlash(flash: Flash | null) {
  const toast = useToast();
  const { t } = useTranslation();
  useEffect(() => {
    // One toast at a time: the warning says the item was saved, so it stands for both.
    if (flash) toast(warningOf(flash, t) ?? successOf(flash, t));
  }, [flash, t, toast]);
}

/** The same words in the page, for a browser without JavaScript (rendered inside <noscript>). */
export function FlashNotice({ flash }: { flash: Flash }) {
  const { t } = useTranslation();
  const success = successOf(flash, t);
  const warning = warningOf(flash, t);
  return (
    <div className="space-y-2" data-testid="flash-notice">
      <p role="status" className="rounded-md border border-s-4 border-palm-600 bg-emerald-50 px-4 py-3 text-sm text-emerald-950">
        <strong>{success.title}</strong> {success.description}
      </p>
      {warning && (
        <p role="alert" className="rounded-md border border-s-4 border-amber-400 bg-amber-50 px-4 py-3 text-sm text-amber-950" data-testid="flash-warning">
          <strong>{warning.title}</strong> {warning.description}
        </p>
      )}
    </div>
  );
}

/**
 * What a screen says above its content after a round trip: the flash of the last save (for a browser without
 * JavaScript; with it, a toast says the same) and the failure of this action, when there is one.
 */
export function ActionNotices({
  flash,
  failure,
  testId,
}: {
  flash: Flash | null | undefined;
  failure: { title: string; message: string } | null;
  testId: string;
}) {
  return (
    <>
      {flash && (
        <noscript>
          <FlashNotice flash={flash} />
        </noscript>
      )}
      {failure && (
        <p role="alert" className="rounded-md border border-s-4 border-red-600 bg-red-50 px-4 py-3 text-sm text-red-900" data-testid={testId}>
          <strong>{failure.title}</strong> — {failure.message}
        </p>
      )}
    </>
  );
}
