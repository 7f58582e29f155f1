import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from "react";
import { data, isRouteErrorResponse, Link, redirect, useLocation, useNavigation } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import type { Route } from "./+types/content-editor";
import { AdminError } from "#app/components/admin/guard.tsx";
import { ContentForm } from "#app/components/admin/content-form.tsx";
import { ActionNotices, useNewsroomFlash } from "#app/components/admin/flash.tsx";
import { AltTextNotice } from "#app/components/admin/alt-text-notice.tsx";
import { DraftOffer, SaveStatus, type DraftOfferCopy } from "#app/components/admin/autosave-status.tsx";
import { LeaveGuard } from "#app/components/admin/leave-guard.tsx";
import { SignInAgainDialog } from "#app/components/admin/sign-in-again.tsx";
import { forgetDraftAt, registerDraftPath, useDraftKeeper } from "#app/components/admin/use-draft-keeper.ts";
import { browserStorage, draftKey, dropDraft, parseDraft, sameValues } from "#app/lib/draft-store.ts";
import { useToast } from "#app/components/ui/toast.tsx";
import { Breadcrumbs } from "#app/components/ui/breadcrumbs.tsx";
import { authMeta } from "#app/lib/auth-meta.ts";
import { contentTypeOfUrl, formValuesOf, initialValues, type FormValues } from "#domain/content-form.ts";
import { contentTypeBySegment, type ContentTypeDefinition } from "#domain/content-types/index.ts";
import { fieldsOf, formErrorOf, type FormFailure } from "#domain/form-answer.ts";
import { getConfig } from "#server/config.server.ts";
import { getDb } from "#server/db/client.server.ts";
import { formAction } from "#server/http/form-action.server.ts";
import { requirePermission } from "#server/auth/session.server.ts";
import { assertMayEdit } from "#server/content/ownership.server.ts";
import { can } from "#server/auth/permissions.server.ts";
import { getForStaff, rowOptionsOf } from "#server/content/newsroom/read.server.ts";
import { MAX_CONTENT_FORM_BYTES } from "#server/content/newsroom/write.server.ts";
import { discardAutosave, newerAutosave } from "#server/content/newsroom/autosaves.server.ts";
import { pushAlertOf } from "#server/push/alerts.server.ts";
import { PushAlertNotice } from "#app/components/admin/push-alert-notice.tsx";
import { CdnNotice } from "#app/components/admin/cdn-notice.tsx";
import { cdnNoticeOf } from "#server/cdn/notice.server.ts";
import { saveFromForm } from "#server/content/newsroom/form.server.ts";
import { flashCookie, takeFlash } from "#server/content/newsroom/flash.server.ts";
import { parseId } from "#domain/ids.ts";
import { imagesWithoutAltOf } from "#server/content/image-details.server.ts";
import { reviewOf } from "#server/content/workflow.server.ts";
import { defaultStatus, isPublicStatus, statusChoices } from "#domain/workflow.ts";
import { ReviewNoteNotice } from "#app/components/admin/workflow.tsx";
import { LOCK_HEARTBEAT_SECONDS, takeLock } from "#server/content/item-locks.server.ts";
import { listNotes } from "#server/content/item-notes.server.ts";
import { LockBanner, LockedArea, useItemLock } from "#app/components/admin/item-lock.tsx";
import { ItemNotes } from "#app/components/admin/item-notes.tsx";
import { ItemCorrections } from "#app/components/admin/item-corrections.tsx";
import { correctionsOf } from "#server/content/corrections.server.ts";
import { LiveDesk } from "#app/components/admin/live/live-desk.tsx";
import { ItemAudiencePanel } from "#app/components/admin/analytics/item-audience.tsx";
import { itemAudience, lastDays } from "#server/analytics/queries.server.ts";

/**
 * One editor for every content type (back-office.md §2 and §5): /admin/{segment}/new and /admin/{segment}/:id.
 * The form comes from the type's definition; a save goes back to the list with its toast, a refused one
 * shows the form again as it was typed, with the messages under the fields.
 */

const notFound = () => data(null, { status: 404, statusText: "Not Found" });

function typeOf(request: Request): ContentTypeDefinition {
  const def = contentTypeOfUrl(request.url);
  if (!def) throw notFound();
  return def;
}

/** The item id of /admin/{segment}/:id, null for /new; a malformed id is a 404. */
function idOf(params: { id?: string }): number | null {
  if (params.id === undefined) return null;
  const id = parseId(params.id);
  if (id === null) throw notFound();
  return id;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const def = typeOf(request);
  const user = await requirePermission(request, def.permissions.write);
  const id = idOf(params);
  const db = await getDb();
  const [item, choices, autosave, pushAlert, cdn] = await Promise.all([
    id === null ? null : getForStaff(db, def.type, id),
    // What its selects of rows offer: the type's categories, the items its reference fields may name.
    rowOptionsOf(db, def.type, def.fields),
    id === null ? null : newerAutosave(db, def.type, id, user.id),
    // Its breaking-news alert, if one was queued: how many subscribers got it (decision 0127).
    id === null ? null : pushAlertOf(db, def.type, id),
    // When readers see a save: within seconds with a purge of the shared cache (and whether the last one failed), else its time-to-live.
    id === null ? null : cdnNoticeOf(db, getConfig()),
  ]);
  if (id !== null && !item) throw notFound();
  const mayPublish = can(user.profile, "content.publish");
  // Ownership (issue 40): another person's item is refused (403, the guard's «not yours» screen) without content.others.
  if (id !== null) await assertMayEdit(db, user, def.type, id, "page");
  // Before it is published again: its pictures without alt text, named in the form (a warning, never a refusal).
  const missingAlt = item ? await imagesWithoutAltOf(db, def, item) : [];
  // Who is editing (decision 0139): opening the form takes the item's lock, or finds who holds it since when.
  const [taken, notes] = item ? await Promise.all([takeLock(db, def.type, item.id, user.id), listNotes(db, def.type, item.id)]) : [null, []];
  // A restored revision lands here with its toast.
  const { flash, headers } = takeFlash(request);
  return data(
    {
      flash,
      segment: def.segment,
      item: item ? { id: item.id, title: item.title, updatedAt: item.updated_at, url: item.url, status: item.status } : null,
      values: withDefaultStatus(initialValues(def, item), item, mayPublish),
      // Workflow (decision 0138): the statuses this account may set, and the note the item was sent back with.
      workflow: { statuses: statusChoices(mayPublish, item?.status ?? null), canSendBack: mayPublish },
      review: item?.status === "changes_requested" ? await reviewOf(db, def.type, item.id) : null,
      choices,
      origin: getConfig().publicUrl,
      canUploadVideo: can(user.profile, "videos.manage"),
      // No lost work: whose copies the browser keeps, and this user's autosave when newer than the last save.
      draftOwner: user.id,
      email: user.email,
      autosave: autosave ? { savedAt: autosave.saved_at, values: initialValues(def, autosave.data) } : null,
      pushAlert,
      cdn,
      missingAlt,
      lock: taken ? { held: taken.held, holder: taken.lock.holder, since: taken.lock.since } : null,
      lockHeartbeatSeconds: LOCK_HEARTBEAT_SECONDS,
      notes,
      // Corrections (decision 0140): those readers see, and whether this account may publish one (a live item).
      corrections: item ? await correctionsOf(db, def.type, item.id) : [],
      canCorrect: mayPublish && item?.status === "published",
      canPublish: mayPublish,
      // Its readers over the last days, by hour and source (issue 45), for an account that may see audience figures.
      audience: item && can(user.profile, "analytics.view") ? await itemAudience(db, def.type, item.id, lastDays(ITEM_AUDIENCE_DAYS)) : null,
    },
    { headers: { ...headers, "Cache-Control": "private, no-store" } },
  );
}

/** The days an item's audience panel covers (today included). */
const ITEM_AUDIENCE_DAYS = 7;

/** A new item's status follows the account's rights: a writer's starts as a draft (decision 0138). */
function withDefaultStatus(values: FormValues, item: unknown, mayPublish: boolean): FormValues {
  return item ? values : { ...values, status: defaultStatus(mayPublish) };
}

export const headers: Route.HeadersFunction = ({ loaderHeaders, errorHeaders }) => errorHeaders ?? loaderHeaders;

/**
 * A refused save (domain/form-answer.ts): the messages under the fields, what was typed (none when the body
 * could not be read), and for a conflict the version saved since.
 */
type Refusal = FormFailure<
  string,
  "BODY_TOO_LARGE" | "BAD_REQUEST" | "INVALID" | "NOT_FOUND" | "CONFLICT" | "LOCKED" | "PUBLISH_PERMISSION" | "FAILED" | SaveLost
> & {
  conflict?: { updatedAt: string; title: string };
};

/** A save that did not reach the server (clientAction): the network, or a session that ended. */
type SaveLost = "OFFLINE" | "UNAUTHENTICATED";

/** saveFromForm's refusals by status. */
const SAVE_CODES = { 400: "INVALID", 403: "PUBLISH_PERMISSION", 404: "NOT_FOUND", 409: "CONFLICT", 500: "FAILED" } as const;

/** Why the save failed when it is not the input (a translation key): the toast's text and the notice. */
const SAVE_FAILURES: Record<string, string> = {
  BODY_TOO_LARGE: "newsroom.ui.tooLarge",
  BAD_REQUEST: "newsroom.ui.badRequest",
  NOT_FOUND: "newsroom.ui.notFound",
  LOCKED: "itemLock.saveRefused",
  PUBLISH_PERMISSION: "workflow.refused",
  FAILED: "newsroom.ui.saveFailedDetail",
};

export async function action({ request, params }: Route.ActionArgs) {
  const def = typeOf(request);
  const user = await requirePermission(request, def.permissions.write);
  const id = idOf(params);
  if (id !== null) await assertMayEdit(await getDb(), user, def.type, id, "page");
  return formAction<Refusal>(request, { limit: MAX_CONTENT_FORM_BYTES }, async (form) => {
    const db = await getDb();
    const outcome = await saveFromForm(db, def, form, { id: user.id, email: user.email, profile: user.profile }, id);
    if (!outcome.ok) {
      const refusal: Refusal = { ok: false, formError: outcome.locked ? "LOCKED" : SAVE_CODES[outcome.status], fields: outcome.errors, values: outcome.values };
      if (outcome.conflict) refusal.conflict = outcome.conflict;
      return data(refusal, { status: outcome.status });
    }
    // The saved version supersedes this user's autosave of it.
    if (id !== null) await discardAutosave(db, def.type, id, user.id);
    // Published (or to be) with pictures a screen reader cannot describe: saved all the same, and said (issue 39).
    const missingAlt = !isPublicStatus(outcome.item.status) ? 0 : (await imagesWithoutAltOf(db, def, outcome.item)).length;
    return redirect(`/admin/${def.segment}`, {
      headers: {
        "Set-Cookie": flashCookie({
          kind: id === null ? "created" : "updated",
          type: def.type,
          imageFailed: outcome.imageFailed ?? undefined,
          missingAlt: missingAlt || undefined,
        }),
      },
    });
  });
}

/**
 * With JavaScript a save goes through here. A save that never reached the server (the network down, or an
 * error page of a proxy instead of the action's answer) comes back as OFFLINE, and one refused because the
 * session ended as UNAUTHENTICATED, each with what was typed: the page keeps the form, retries or asks to
 * sign in again, then saves (docs/how-it-works.md, "No lost work"). A save that went through clears the
 * copy kept on this device. The status codes keep React Router from reloading the page's data meanwhile.
 */
export async function clientAction({ request, serverAction }: Route.ClientActionArgs) {
  const def = contentTypeOfUrl(request.url);
  // Read before the server call consumes the body.
  const values = def ? formValuesOf(def, await request.clone().formData()) : {};
  try {
    return await serverAction();
  } catch (error) {
    if (error instanceof Response) {
      if (error.status >= 300 && error.status < 400) forgetDraftAt(new URL(request.url).pathname);
      throw error;
    }
    if (isRouteErrorResponse(error) && error.status === 401) {
      return data<Refusal>({ ok: false, formError: "UNAUTHENTICATED", values }, { status: 401 });
    }
    if (isRouteErrorResponse(error) && error.status < 500) throw error;
    return data<Refusal>({ ok: false, formError: "OFFLINE", values }, { status: 503 });
  }
}

export const meta: Route.MetaFunction = ({ matches, data }) => authMeta(matches, contentTypeBySegment(data?.segment)?.labels.title ?? "admin.dashboard");

/** The failure toasts of §8: 'فشل إنشاء الخبر' / 'فشل تحديث الخبر' with why, once per answer. */
function useRefusalToast(def: ContentTypeDefinition, editing: boolean, refusal: Refusal | undefined) {
  const toast = useToast();
  const { t } = useTranslation();
  useEffect(() => {
    // A save lost on the network or to an ended session is told beside the save button, and retried.
    if (!refusal || refusal.formError === "OFFLINE" || refusal.formError === "UNAUTHENTICATED") return;
    const title = t(editing ? def.labels.updateFailed : def.labels.createFailed);
    const failure = refusal.formError && SAVE_FAILURES[refusal.formError];
    const description = refusal.conflict ? t("newsroom.ui.conflictTitle") : t(failure || "newsroom.ui.checkFields");
    toast({ title, description, variant: "destructive" });
  }, [refusal, def, editing, t, toast]);
}

type Offer = DraftOfferCopy & { values: FormValues };

/** The copy kept on this device as each editor page found it when it opened (read once per visit, in the browser). */
const openedCopies = new Map<string, string | null>();
const noSubscription = () => () => undefined;

/**
 * The copy to offer when the editor opens: the one kept on this device, or this user's autosave on the
 * server, whichever is newer, when it differs from what the page opened with.
 */
function useDraftOffer(storageKey: string, opened: FormValues, autosave: { savedAt: string; values: FormValues } | null): Offer | null {
  const raw = useSyncExternalStore(
    noSubscription,
    () => {
      if (!openedCopies.has(storageKey)) openedCopies.set(storageKey, browserStorage()?.getItem(storageKey) ?? null);
      return openedCopies.get(storageKey) ?? null;
    },
    () => null,
  );
  // Read afresh when the editor comes back to the item later.
  useEffect(() => () => void openedCopies.delete(storageKey), [storageKey]);
  return useMemo(() => {
    const local = parseDraft(raw);
    const copies: Offer[] = [];
    if (local && !sameValues(local.values, opened)) copies.push({ source: "local", savedAt: local.savedAt, values: local.values });
    if (autosave && !sameValues(autosave.values, opened)) copies.push({ source: "server", savedAt: autosave.savedAt, values: autosave.values });
    copies.sort((a, b) => Date.parse(b.savedAt) - Date.parse(a.savedAt));
    return copies[0] ?? null;
  }, [raw, opened, autosave]);
}

/** One editor per item: moving to another item starts afresh (its form, its copy, its offer). */
export default function ContentEditorPage(props: Route.ComponentProps) {
  const { segment, item } = props.loaderData;
  return <ContentEditor key={`${segment}:${item?.id ?? "new"}`} {...props} />;
}

function ContentEditor({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const def = contentTypeBySegment(loaderData.segment)!;
  const { item } = loaderData;
  useRefusalToast(def, item !== null, actionData);
  useNewsroomFlash(loaderData.flash);
  const location = useLocation();
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting" && navigation.formMethod?.toUpperCase() === "POST" && navigation.formAction === location.pathname;

  // No lost work: the copy on this device, the draft's autosave, the way back after an ended session.
  const storageKey = draftKey(loaderData.draftOwner, def.type, item?.id ?? null);
  registerDraftPath(location.pathname, storageKey);
  const found = useDraftOffer(storageKey, loaderData.values, loaderData.autosave);
  const [settled, setSettled] = useState(false);
  const offer = settled ? null : found;
  const [restored, setRestored] = useState<{ values: FormValues; generation: number; answer: unknown } | null>(null);
  const autosaveUrl = item && !isPublicStatus(item.status) ? `/api/admin/${def.segment}/${item.id}/autosave` : null;
  const keeper = useDraftKeeper({ def, storageKey, base: item?.updatedAt ?? null, autosaveUrl, submitting, answer: actionData });
  // A save refused because the session ended opens the sign-in dialog; the status's button opens it too.
  const saveRefused = actionData?.formError === "UNAUTHENTICATED";
  const [signInAsked, setSignInAsked] = useState(false);
  const [signInClosedFor, setSignInClosedFor] = useState<unknown>(null);
  const signingIn = signInAsked || (saveRefused && signInClosedFor !== actionData);
  const closeSignIn = useCallback(() => {
    setSignInAsked(false);
    setSignInClosedFor(actionData);
  }, [actionData]);
  const { signedIn } = keeper;
  // Who is editing: a takeover keeps this page's typing (on the device and the draft's autosave), then the form is read-only.
  const itemLock = useItemLock({
    url: item ? `/api/admin/${def.segment}/${item.id}/lock` : null,
    initial: loaderData.lock,
    heartbeatSeconds: loaderData.lockHeartbeatSeconds,
    onLost: keeper.flush,
  });
  const onSignedIn = useCallback(() => {
    closeSignIn();
    signedIn();
  }, [closeSignIn, signedIn]);

  const restore = () => {
    if (!offer) return;
    setRestored((r) => ({ values: offer.values, generation: (r?.generation ?? 0) + 1, answer: actionData }));
    keeper.restored(offer.values);
    setSettled(true);
  };
  const discard = () => {
    if (!offer) return;
    dropDraft(browserStorage(), storageKey);
    if (offer.source === "server" && autosaveUrl) void fetch(autosaveUrl, { method: "DELETE", credentials: "same-origin" }).catch(() => undefined);
    setSettled(true);
  };

  // A body the server could not read comes back without values: the form keeps the item's (or the restored copy).
  const answered = actionData?.values && Object.keys(actionData.values).length ? (actionData.values as FormValues) : null;
  const values = restored && restored.answer === actionData ? restored.values : (answered ?? restored?.values ?? loaderData.values);
  const code = formErrorOf(actionData);
  const failure = code && SAVE_FAILURES[code];

  return (
    <section data-testid="content-editor" data-type={def.type} data-mode={item ? "edit" : "create"} className="space-y-5">
      <div className="space-y-2">
        <Breadcrumbs
          className="text-sm text-ink-soft"
          steps={[
            <Link key="list" to={`/admin/${def.segment}`} className="hover:underline" data-testid="back-to-list">
              {t(def.labels.title)}
            </Link>,
          ]}
        />
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h1 className="text-2xl font-bold">{item ? t("newsroom.ui.editTitle", { title: item.title }) : t(`newsroom.ui.new.${def.type}`)}</h1>
          {item && (
            <div className="flex flex-wrap gap-2 text-sm">
              <Link
                to={`/admin/${def.segment}/${item.id}/preview`}
                target="_blank"
                className="rounded-md border border-sand-300 bg-white px-3 py-1.5 font-bold hover:bg-sand-100"
                data-testid="preview-link"
              >
                {t("newsroom.ui.preview")}
              </Link>
              <Link
                to={`/admin/${def.segment}/${item.id}/revisions`}
                className="rounded-md border border-sand-300 bg-white px-3 py-1.5 font-bold hover:bg-sand-100"
                data-testid="revisions-link"
              >
                {t("newsroom.ui.revisions")}
              </Link>
            </div>
          )}
        </div>
      </div>
      <ActionNotices
        flash={loaderData.flash}
        failure={failure ? { title: t(item ? def.labels.updateFailed : def.labels.createFailed), message: t(failure) } : null}
        testId="save-failure"
      />
      <PushAlertNotice alert={loaderData.pushAlert} />
      <CdnNotice notice={loaderData.cdn} />
      {loaderData.review && <ReviewNoteNotice review={loaderData.review} />}
      <AltTextNotice urls={loaderData.missingAlt} />
      <LockBanner lock={itemLock.lock} lost={itemLock.lost} onTakeOver={itemLock.takeOver} />
      {offer && <DraftOffer copy={offer} onRestore={restore} onDiscard={discard} />}
      <LockedArea readOnly={itemLock.readOnly}>
        <ContentForm
          key={restored?.generation ?? 0}
          def={def}
          item={item ? { id: item.id, updatedAt: item.updatedAt } : null}
          values={values}
          serverErrors={fieldsOf(actionData)}
          choices={loaderData.choices}
          origin={loaderData.origin}
          conflict={actionData?.conflict ?? null}
          canUploadVideo={loaderData.canUploadVideo}
          workflow={loaderData.workflow}
          onChanged={keeper.changed}
          status={<SaveStatus state={keeper.state} autosavedAt={keeper.autosavedAt} onSignIn={() => setSignInAsked(true)} />}
        />
      </LockedArea>
      {/* A type that can be live (issue 44): its desk, to start and end it and post entries; publishing them needs content.publish. */}
      {item && def.live && loaderData.canPublish && <LiveDesk id={item.id} segment={def.segment} owner={loaderData.draftOwner} />}
      {item && <ItemNotes url={`/api/admin/${def.segment}/${item.id}/notes`} initial={loaderData.notes} />}
      {item && <ItemCorrections url={`/api/admin/${def.segment}/${item.id}/corrections`} initial={loaderData.corrections} canAdd={loaderData.canCorrect} />}
      {item && loaderData.audience && <ItemAudiencePanel figures={loaderData.audience} days={ITEM_AUDIENCE_DAYS} />}
      <LeaveGuard when={keeper.dirty} onLeave={keeper.flush} />
      <SignInAgainDialog open={signingIn} email={loaderData.email} onSignedIn={onSignedIn} onClose={closeSignIn} />
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminError error={error} />;
}
