import { useEffect, useRef, useState } from "react";
import { Form, Link, useFetcher, useNavigation } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import { useAnswerToast } from "#app/components/forms/notice.tsx";
import { MailIcon } from "#app/components/ui/icons.tsx";
import { formatDate } from "#domain/format.ts";
import type { Language } from "#domain/language.ts";
import type { ContactDetail } from "#server/content/contacts.server.ts";
import { KindBadge, mailtoAddress, replyHref } from "./contact-badges.tsx";
import { hrefOf, type ContactsAnswer, type ContactsView as View } from "./contacts-view.ts";

const button = "inline-flex min-h-11 items-center justify-center gap-2 rounded-md px-4 py-2 text-sm font-bold disabled:cursor-wait disabled:opacity-70";

/** The open message: who wrote it and when, the text, and what to do (replied, reply by e-mail, delete). */
export function Detail({ message, view, lang }: { message: ContactDetail; view: View; lang: Language }) {
  const { t } = useTranslation();
  const toggle = useFetcher<ContactsAnswer>({ key: `contact-status-${message.id}` });
  const toast = toggle.data ? { title: toggle.data.title, message: toggle.data.message, variant: toggle.data.ok ? ("success" as const) : undefined } : null;
  useAnswerToast(toast, toggle.data?.at);

  // Shown at once, before the server answers; the server's answer (and a failure) replaces it.
  const pending = toggle.formData?.get("status");
  const status = typeof pending === "string" ? pending : message.status;
  const next = status === "replied" ? "read" : "replied";
  const here = hrefOf({ ...view, id: message.id });

  // Without JavaScript the delete button is a link to ?confirm=delete; with it, the same question opens in place.
  const [asking, setAsking] = useState(false);
  const confirming = asking || Boolean(view.confirm);

  return (
    <article
      aria-labelledby="contact-subject"
      className="space-y-5 rounded-lg border border-sand-200 bg-white p-4 shadow-sm sm:p-6"
      data-testid="contact-detail"
      data-id={message.id}
      data-status={status}
    >
      <a href="#contact-list-heading" className="text-sm font-bold text-desert-700 underline lg:hidden">
        {t("contacts.backToList")}
      </a>
      <header className="space-y-2">
        <h2 id="contact-subject" dir="auto" className="text-xl font-bold break-words" data-testid="contact-subject">
          {message.subject}
        </h2>
        <KindBadge kind={message.kind} />
      </header>
      <ContactFacts message={message} status={status} lang={lang} />
      <div dir="auto" className="rounded-md bg-sand-50 p-4 leading-relaxed break-words whitespace-pre-wrap" data-testid="contact-message">
        {message.message}
      </div>

      <div className="flex flex-wrap gap-2">
        <toggle.Form method="post" action={here}>
          <input type="hidden" name="intent" value="status" />
          <input type="hidden" name="id" value={message.id} />
          <input type="hidden" name="status" value={next} />
          <button
            type="submit"
            disabled={toggle.state !== "idle"}
            aria-busy={toggle.state !== "idle"}
            className={`${button} ${status === "replied" ? "border border-sand-300 bg-white hover:bg-sand-100" : "bg-palm-600 text-white hover:bg-palm-700"}`}
            data-testid="toggle-replied"
          >
            {t(status === "replied" ? "contacts.unmarkReplied" : "contacts.markReplied")}
          </button>
        </toggle.Form>
        <a href={replyHref(message.email, message.subject)} className={`${button} bg-desert-600 text-white hover:bg-desert-700`} data-testid="reply-by-email">
          <MailIcon width={18} height={18} aria-hidden="true" />
          {t("contacts.reply")}
        </a>
        {!confirming && (
          <Link
            to={hrefOf({ ...view, id: message.id, confirm: true })}
            onClick={(e) => {
              e.preventDefault();
              setAsking(true);
            }}
            className={`${button} border border-red-300 bg-white text-red-700 hover:bg-red-50`}
            data-testid="delete-contact"
          >
            {t("contacts.delete")}
          </Link>
        )}
      </div>

      {confirming && <DeleteQuestion messageId={message.id} view={view} asked={asking} onCancel={() => setAsking(false)} />}
    </article>
  );
}

function ContactFacts({ message, status, lang }: { message: ContactDetail; status: string; lang: Language }) {
  const { t } = useTranslation();
  return (
    <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-2 text-sm">
      <dt className="font-bold text-ink-soft">{t("contacts.from")}</dt>
      <dd data-testid="contact-name">
        <bdi>{message.name}</bdi>
      </dd>
      <dt className="font-bold text-ink-soft">{t("contacts.email")}</dt>
      <dd className="min-w-0">
        <a
          href={`mailto:${mailtoAddress(message.email)}`}
          dir="ltr"
          className="inline-block max-w-full truncate align-bottom text-desert-700 underline"
          data-testid="contact-email"
        >
          {message.email}
        </a>
      </dd>
      <dt className="font-bold text-ink-soft">{t("contacts.date")}</dt>
      <dd>
        <time dateTime={message.created_at}>{formatDate(message.created_at, lang, "dateTime")}</time>
      </dd>
      <dt className="font-bold text-ink-soft">{t("contacts.statusLabel")}</dt>
      <dd data-testid="contact-status">{t(`contacts.status.${status}`, { defaultValue: t("contacts.status.unknown") })}</dd>
      <dt className="font-bold text-ink-soft">{t("contacts.kindLabel")}</dt>
      <dd data-testid="contact-kind">{t(`contacts.kind.${message.kind}`)}</dd>
    </dl>
  );
}

type QuestionProps = { messageId: number; view: View; asked: boolean; onCancel: () => void };

/**
 * "Delete this message?": asked in place (`asked`, the cancel button takes the focus) or, without JavaScript,
 * by the ?confirm=delete address (cancel is then a link back).
 */
function DeleteQuestion({ messageId, view, asked, onCancel }: QuestionProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const cancelRef = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    if (asked) cancelRef.current?.focus();
  }, [asked]);
  const deleting = navigation.state === "submitting" && navigation.formData?.get("intent") === "delete";
  return (
    <div
      role="alertdialog"
      aria-labelledby="confirm-delete-title"
      aria-describedby="confirm-delete-text"
      className="space-y-3 rounded-md border border-red-300 bg-red-50 p-4"
      data-testid="confirm-delete"
    >
      <h3 id="confirm-delete-title" className="font-bold text-red-900">
        {t("contacts.confirmDeleteTitle")}
      </h3>
      <p id="confirm-delete-text" className="text-sm text-red-900">
        {t("contacts.confirmDelete")}
      </p>
      <div className="flex flex-wrap gap-2">
        <Form method="post" action={hrefOf({ status: view.status, page: view.page })} replace>
          <input type="hidden" name="intent" value="delete" />
          <input type="hidden" name="id" value={messageId} />
          <button
            type="submit"
            disabled={deleting}
            aria-busy={deleting}
            className={`${button} bg-red-700 text-white hover:bg-red-800`}
            data-testid="confirm-delete-submit"
          >
            {t("contacts.delete")}
          </button>
        </Form>
        <Link
          ref={cancelRef}
          to={hrefOf({ ...view, id: messageId })}
          onClick={(e) => {
            if (view.confirm) return;
            e.preventDefault();
            onCancel();
          }}
          className={`${button} border border-sand-300 bg-white hover:bg-sand-100`}
          data-testid="confirm-delete-cancel"
        >
          {t("contacts.cancel")}
        </Link>
      </div>
    </div>
  );
}
