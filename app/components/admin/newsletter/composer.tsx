import { useEffect, useState } from "react";
import { useFetcher } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import { cancelButtonClass, DIALOG_WIDTH, ModalDialog } from "#app/components/admin/modal-dialog.tsx";
import { useToast } from "#app/components/ui/toast.tsx";
import type { FieldErrors } from "#domain/schemas/shared.ts";
import type { Language } from "#domain/language.ts";
import { NEWSLETTER_LIMITS } from "#domain/newsletter-sends.ts";
import { formatNumber } from "#domain/plural.ts";
import { ComposedItems } from "./composed-items.tsx";
import { inputClass, primaryButton, smallButton, type ComposedItem, type NewsletterAnswer, type NewsletterView } from "./newsletter-types.ts";

type ComposerProps = { view: NewsletterView; initial: ComposedItem[]; recent: ComposedItem[]; audience: number; subject: string };

/** The mail being composed: subject, intro and items; previewed in a frame, sent after a confirmation. */
export function Composer({ view, initial, recent, audience, subject }: ComposerProps) {
  const { t, i18n } = useTranslation();
  const [items, setItems] = useState<ComposedItem[]>(initial);
  const [confirming, setConfirming] = useState(false);
  const composer = useFetcher<NewsletterAnswer>({ key: "newsletter-compose" });
  const answer = composer.state === "idle" ? composer.data : undefined;
  const previewAnswer = answer?.ok && answer.intent === "preview" ? answer : undefined;
  const sendAnswer = answer && (answer.ok ? answer.intent === "send" : true) ? answer : undefined;
  const fields = (answer && !answer.ok ? answer.fields : undefined) ?? {};
  const lang = i18n.language as Language;
  useSendToast(sendAnswer, lang);
  const sendId = sendAnswer?.ok && sendAnswer.intent === "send" ? sendAnswer.sendId : undefined;

  return (
    <section className="rounded-lg border border-sand-200 bg-white p-4" aria-labelledby="newsletter-compose-title" data-testid="newsletter-composer">
      <h2 id="newsletter-compose-title" className="text-xl font-bold">
        {t(view.kind === "digest" ? `newsletterAdmin.composeDigest.${view.period}` : "newsletterAdmin.composeItem")}
      </h2>
      <p className="mt-1 text-sm text-ink-soft" data-testid="newsletter-audience" data-count={audience}>
        {t("newsletterAdmin.audience", { total: formatNumber(lang, audience), language: t(`languageNames.${view.language}`) })}
      </p>
      <composer.Form method="post" className="mt-4 space-y-4" id="newsletter-form">
        <input type="hidden" name="kind" value={view.kind} />
        <input type="hidden" name="period" value={view.period} />
        <input type="hidden" name="language" value={view.language} />
        {items.map((item) => (
          <input key={`${item.type}:${item.id}`} type="hidden" name="items" value={`${item.type}:${item.id}`} />
        ))}
        <MailTexts subject={subject} fields={fields} />
        <ComposedItems kind={view.kind} items={items} setItems={setItems} recent={recent} error={fields.items} />
        <div className="flex flex-wrap gap-3 border-t border-sand-200 pt-4">
          <button type="submit" name="intent" value="preview" className={smallButton} data-testid="newsletter-preview" disabled={composer.state !== "idle"}>
            {t("newsletterAdmin.preview")}
          </button>
          <button
            type="button"
            className={primaryButton}
            onClick={() => setConfirming(true)}
            disabled={!items.length || audience === 0}
            data-testid="newsletter-send"
          >
            {t("newsletterAdmin.send")}
          </button>
        </div>
      </composer.Form>
      {sendId ? (
        <p role="status" className="mt-3 rounded-md bg-palm-50 p-3 font-bold text-palm-800" data-testid="newsletter-queued">
          {t("newsletterAdmin.queued", { total: formatNumber(lang, sendAnswer?.total ?? 0) })}
        </p>
      ) : null}
      {previewAnswer?.ok && previewAnswer.preview ? <PreviewPane preview={previewAnswer.preview} /> : null}
      <SendConfirmation open={confirming} onClose={() => setConfirming(false)} audience={audience} language={view.language} />
    </section>
  );
}

/** The send's answer as a toast: queued for so many, or refused. */
function useSendToast(sendAnswer: NewsletterAnswer | undefined, lang: Language) {
  const { t } = useTranslation();
  const toast = useToast();
  useEffect(() => {
    if (!sendAnswer) return;
    if (sendAnswer.ok && sendAnswer.intent === "send") {
      toast({ title: t("newsletterAdmin.queued", { total: formatNumber(lang, sendAnswer.total ?? 0) }), variant: "success" });
    } else if (!sendAnswer.ok) {
      toast({ title: t("newsletterAdmin.failed"), description: sendAnswer.fields ? t("newsletterAdmin.checkFields") : undefined, variant: "destructive" });
    }
  }, [sendAnswer, t, toast, lang]);
}

function MailTexts({ subject, fields }: { subject: string; fields: FieldErrors<string> }) {
  const { t } = useTranslation();
  return (
    <>
      <label className="block">
        <span className="mb-1 block font-bold">{t("newsletterAdmin.subject")}</span>
        <input
          name="subject"
          defaultValue={subject}
          maxLength={NEWSLETTER_LIMITS.subject}
          className={inputClass}
          dir="auto"
          aria-invalid={fields.subject ? true : undefined}
          aria-describedby={fields.subject ? "newsletter-subject-error" : undefined}
          data-testid="newsletter-subject"
        />
        {fields.subject ? (
          <span id="newsletter-subject-error" className="mt-1 block text-sm text-red-700">
            {t(fields.subject)}
          </span>
        ) : null}
      </label>
      <label className="block">
        <span className="mb-1 block font-bold">{t("newsletterAdmin.intro")}</span>
        <textarea name="intro" rows={3} maxLength={NEWSLETTER_LIMITS.intro} className={inputClass} dir="auto" data-testid="newsletter-intro" />
        {fields.intro ? <span className="mt-1 block text-sm text-red-700">{t(fields.intro)}</span> : null}
      </label>
    </>
  );
}

/** The mail as the mail clients will show it, in a sandboxed frame. */
function PreviewPane({ preview }: { preview: NonNullable<NewsletterAnswer["preview"]> }) {
  const { t } = useTranslation();
  return (
    <div className="mt-6" data-testid="newsletter-preview-pane" data-language={preview.language}>
      <h3 className="mb-2 font-bold">
        {t("newsletterAdmin.previewTitle")}: <bdi>{preview.subject}</bdi>
      </h3>
      <iframe
        title={t("newsletterAdmin.previewTitle")}
        srcDoc={preview.html}
        sandbox=""
        className="h-[36rem] w-full rounded-md border border-sand-200 bg-white"
        data-testid="newsletter-preview-frame"
      />
    </div>
  );
}

type ConfirmationProps = { open: boolean; onClose: () => void; audience: number; language: Language };

/** "Send to so many subscribers?": its button submits the composer's form with the intent `send`. */
function SendConfirmation({ open, onClose, audience, language }: ConfirmationProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  return (
    <ModalDialog
      open={open}
      onClose={onClose}
      labelledBy="newsletter-confirm-title"
      describedBy="newsletter-confirm-text"
      width={DIALOG_WIDTH.medium}
      testId="newsletter-confirm-dialog"
    >
      <div>
        <h2 id="newsletter-confirm-title" className="text-lg font-bold">
          {t("newsletterAdmin.confirmTitle")}
        </h2>
        <p id="newsletter-confirm-text" className="mt-2">
          {t("newsletterAdmin.confirmText", { total: formatNumber(lang, audience), language: t(`languageNames.${language}`) })}
        </p>
        <div className="mt-5 flex justify-end gap-2">
          <button type="button" className={cancelButtonClass} onClick={onClose}>
            {t("newsletterAdmin.cancel")}
          </button>
          {/* Submits the composer's form (subject and intro as typed, the items in their order). */}
          <button
            type="submit"
            form="newsletter-form"
            name="intent"
            value="send"
            className={primaryButton}
            onClick={() => setTimeout(onClose)}
            data-testid="newsletter-send-confirm"
          >
            {t("newsletterAdmin.sendNow")}
          </button>
        </div>
      </div>
    </ModalDialog>
  );
}
