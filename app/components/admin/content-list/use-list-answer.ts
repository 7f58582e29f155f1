import { useEffect } from "react";
import { useToast } from "#app/components/ui/toast.tsx";
import { useOnAnswer } from "#app/components/forms/notice.tsx";
import { useCount, useTranslation } from "#app/lib/i18n.ts";
import { formErrorOf } from "#domain/form-answer.ts";
import { bulkFailureOf, DELETE_FAILURES, type ListAnswer } from "./list-answer.ts";

/**
 * What the list says of its action's answer: a bulk action done (a toast, and the selection cleared) or refused,
 * a delete refused; and the failure toasts (§8) of a list that did not load and of a delete that failed.
 */
export function useListAnswer(answer: ListAnswer | undefined, loadFailed: { title: string; key: unknown } | null, clearSelection: () => void) {
  const { t } = useTranslation();
  const counted = useCount();
  const toast = useToast();
  const code = formErrorOf(answer);
  const bulkFailure = answer && !answer.ok && answer.intent === "bulk" ? bulkFailureOf(answer) : null;
  const deleteFailure = code && !bulkFailure ? (DELETE_FAILURES[code] ?? DELETE_FAILURES.FAILED) : null;
  const bulkDone = answer?.ok && answer.bulk ? answer.bulk : null;
  const bulkDoneText = bulkDone
    ? bulkDone.count
      ? t(`newsroom.bulk.done.${bulkDone.action}`, { items: counted("newsroom.bulk.items", bulkDone.count) })
      : t("newsroom.bulk.none")
    : null;
  useOnAnswer(answer, () => {
    if (bulkDoneText) {
      toast({ title: t("newsroom.ui.successTitle"), description: bulkDoneText, variant: "success" });
      clearSelection();
    } else if (bulkFailure) toast({ title: t("newsroom.bulk.failed"), description: t(bulkFailure), variant: "destructive" });
  });
  useListFailures(loadFailed, answer, deleteFailure);
  return { bulkFailure, deleteFailure, bulkDoneText };
}

/** The list's failure toasts (§8): a list that did not load, a delete that failed. */
function useListFailures(loadFailed: { title: string; key: unknown } | null, answer: ListAnswer | undefined, deleteFailure: string | null) {
  const { t } = useTranslation();
  const toast = useToast();
  const loadKey = loadFailed?.key;
  const loadTitle = loadFailed?.title;
  useEffect(() => {
    if (loadKey && loadTitle) toast({ title: loadTitle, description: t("newsroom.ui.loadFailedDetail"), variant: "destructive" });
  }, [loadKey, loadTitle, t, toast]);
  useOnAnswer(answer, () => {
    if (deleteFailure) toast({ title: t("newsroom.ui.deleteFailed"), description: t(deleteFailure), variant: "destructive" });
  });
}
