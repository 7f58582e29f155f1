import type { ChangeEvent } from "react";
import { data, Form } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import type { Route } from "./+types/users";
import { AdminError } from "#app/components/admin/guard.tsx";
import { Avatar } from "#app/components/admin/avatar.tsx";
import { useAnswerToast } from "#app/components/forms/notice.tsx";
import { Field, InputField } from "#app/components/forms/field.tsx";
import { AccessSchema, formValues, InviteSchema, NAME_MAX, UserIdSchema, validate } from "#domain/schemas/auth.ts";
import { EMAIL_MAX, type FieldErrors } from "#domain/schemas/shared.ts";
import type { FormAnswer } from "#domain/form-answer.ts";
import { authMeta } from "#app/lib/auth-meta.ts";
import { formatDate } from "#domain/format.ts";
import { type Language } from "#domain/language.ts";
import { languageOfRequest } from "#server/http/language.server.ts";
import { getConfig } from "#server/config.server.ts";
import { getDb } from "#server/db/client.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import { getAuth } from "#server/auth/auth.server.ts";
import {
  createAccount,
  createInvitationToken,
  findAccountByEmail,
  findAccountById,
  listAccounts,
  setAccess,
  setDisabled,
  type AccountRow,
} from "#server/auth/accounts.server.ts";
import { displayName, initialsOf, safeAvatarUrl } from "#server/auth/display.server.ts";
import { sendAccountMail } from "#server/auth/emails.server.ts";
import {
  canGrant,
  canManageUser,
  isAdmin,
  isPermission,
  isRole,
  PERMISSIONS,
  ROLE_PRESETS,
  ROLES,
  type Permission,
  type Role,
} from "#server/auth/permissions.server.ts";
import { requirePermission, type SessionUser } from "#server/auth/session.server.ts";
import { formAction } from "#server/http/form-action.server.ts";
import type { Database } from "#server/db/client.server.ts";

/** The roles an invitation can give (the ready-made roles of issue 40): a reader needs no invitation. */
const STAFF_ROLES: Role[] = ["writer", "editor", "admin"];

const actorOf = (user: SessionUser) => ({ id: user.id, ...user.profile });
const targetOf = (row: AccountRow) => ({ id: row.id, role: row.role, isAdmin: row.isAdmin, permissions: row.permissions, disabled: row.disabled });

export async function loader({ request }: Route.LoaderArgs) {
  const me = await requirePermission(request, "users.manage");
  const actor = actorOf(me);
  const rows = await listAccounts(await getDb());
  const accounts = rows.map((row) => {
    const name = displayName(row, row.email);
    return {
      id: row.id,
      email: row.email,
      name,
      initials: initialsOf(name),
      avatarUrl: safeAvatarUrl(row.avatarUrl),
      role: row.isAdmin ? "admin" : isRole(row.role) ? row.role : "reader",
      permissions: row.permissions.filter(isPermission),
      emailVerified: row.emailVerified,
      disabled: row.disabled,
      createdAt: row.createdAt.toISOString(),
      manageable: canManageUser(actor, targetOf(row)),
      self: row.id === me.id,
    };
  });
  const actorIsAdmin = isAdmin(me.profile);
  return data(
    {
      accounts,
      roles: ROLES.filter((r) => actorIsAdmin || r !== "admin"),
      inviteRoles: STAFF_ROLES.filter((r) => actorIsAdmin || r !== "admin"),
      permissions: PERMISSIONS.map((p) => ({ name: p, grantable: actorIsAdmin || me.profile.permissions.includes(p) })),
      // What picking a role puts in the permission boxes (they can still be adjusted before saving).
      presets: ROLE_PRESETS as Record<string, readonly string[]>,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

type Intent = "invite" | "access" | "disable" | "enable" | "resend";
type Extra = { errors?: FieldErrors; userId?: string };
type ActionData = FormAnswer<never, string> & Extra & { intent: Intent; message: string; at: number };

const answer = (intent: Intent, status: number, message: string, extra: Extra = {}) => {
  const body = { intent, message, at: Date.now(), ...extra };
  return data<ActionData>(status < 300 ? { ok: true, ...body } : { ok: false, ...body }, { status });
};

const intentOf = (form: FormData | null) => {
  const given = form?.get("intent");
  return (typeof given === "string" ? given : "") as Intent;
};

function grantsFrom(role: string, permissions: string[]): { role: Role; permissions: Permission[] } | null {
  if (!isRole(role) || !permissions.every(isPermission)) return null;
  // A reader holds no back-office permission; an admin holds all of them by role; writers and editors hold their list.
  return { role, permissions: role === "editor" || role === "writer" ? permissions : [] };
}

async function sendInvitation(request: Request, userId: string, email: string, inviter: string) {
  const auth = await getAuth();
  const token = await createInvitationToken(auth, userId);
  await sendAccountMail(getConfig(), "invite", { to: email, token, lang: languageOfRequest(request), inviter });
}

export async function action({ request }: Route.ActionArgs) {
  const me = await requirePermission(request, "users.manage");
  // A body that cannot be read (too large, not a form) is answered as the forms' failure, on the page.
  const echo = (form: FormData | null) => ({ intent: intentOf(form), message: "newsroom.ui.badRequest", at: Date.now() });
  return formAction<ActionData>(request, { echo }, async (form) => {
    const intent = intentOf(form);
    const db = await getDb();
    return intent === "invite" ? invite(request, db, me, form) : manage(request, db, me, intent, form);
  });
}

/** An invitation: an account with the role and permissions given, and a mail that lets its owner in. */
async function invite(request: Request, db: Database, me: SessionUser, form: FormData) {
  const intent = "invite";
  const parsed = validate(InviteSchema, formValues(form, ["email", "fullName", "role", "permissions"], ["permissions"]));
  if (!parsed.ok) return answer(intent, 400, "staff.checkFields", { errors: parsed.errors });
  const grants = grantsFrom(parsed.data.role, parsed.data.permissions);
  if (!grants || grants.role === "reader") return answer(intent, 400, "staff.invalidPermission");
  if (!canGrant(me.profile, grants.role, grants.permissions)) return answer(intent, 403, "staff.cannotGrant");
  if (await findAccountByEmail(db, parsed.data.email)) return answer(intent, 409, "auth.alreadyRegistered", { errors: { email: "auth.alreadyRegistered" } });
  const { id } = await createAccount(
    await getAuth(),
    db,
    {
      email: parsed.data.email,
      name: parsed.data.fullName || undefined,
      emailVerified: false,
      ...grants,
    },
    me,
  );
  try {
    await sendInvitation(request, id, parsed.data.email, me.name);
  } catch (error) {
    logger.error({ err: error }, "invitation e-mail failed");
    return answer(intent, 502, "staff.invitationNotSent", { userId: id });
  }
  return answer(intent, 200, "staff.invited", { userId: id });
}

/** A change to an existing account: its access, disabling or enabling it, sending its invitation again. */
async function manage(request: Request, db: Database, me: SessionUser, intent: Intent, form: FormData) {
  const actor = actorOf(me);
  const target = validate(UserIdSchema, formValues(form, ["userId"]));
  if (!target.ok) return answer(intent, 400, "staff.unknownUser");
  const row = await findAccountById(db, target.data.userId);
  if (!row) return answer(intent, 404, "staff.unknownUser");
  if (!canManageUser(actor, targetOf(row))) return answer(intent, 403, row.id === me.id ? "staff.notYourself" : "staff.cannotManage", { userId: row.id });

  switch (intent) {
    case "access": {
      const parsed = validate(AccessSchema, formValues(form, ["userId", "role", "permissions"], ["permissions"]));
      if (!parsed.ok) return answer(intent, 400, "staff.checkFields", { errors: parsed.errors, userId: row.id });
      const grants = grantsFrom(parsed.data.role, parsed.data.permissions);
      if (!grants) return answer(intent, 400, "staff.invalidPermission", { userId: row.id });
      if (!canGrant(me.profile, grants.role, grants.permissions)) return answer(intent, 403, "staff.cannotGrant", { userId: row.id });
      await setAccess(db, row.id, grants, me);
      return answer(intent, 200, "staff.saved", { userId: row.id });
    }
    case "disable":
    case "enable":
      await setDisabled(db, row.id, intent === "disable", me);
      return answer(intent, 200, intent === "disable" ? "staff.disabledDone" : "staff.enabledDone", { userId: row.id });
    case "resend":
      if (row.emailVerified) return answer(intent, 409, "staff.alreadyActive", { userId: row.id });
      try {
        await sendInvitation(request, row.id, row.email, me.name);
      } catch (error) {
        logger.error({ err: error }, "invitation e-mail failed");
        return answer(intent, 502, "staff.invitationNotSent", { userId: row.id });
      }
      return answer(intent, 200, "staff.invited", { userId: row.id });
    default:
      return answer("access", 400, "staff.unknownAction");
  }
}

export const meta: Route.MetaFunction = ({ matches }) => authMeta(matches, "admin.users");

const permissionKey = (p: string) => `staff.permission.${p.replace(".", "_")}`;

type Loaded = Route.ComponentProps["loaderData"];

function PermissionBoxes({
  permissions,
  checked,
  disabled,
  idPrefix,
}: {
  permissions: Loaded["permissions"];
  checked: readonly string[];
  disabled?: boolean;
  idPrefix: string;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="space-y-1" disabled={disabled}>
      <legend className="mb-1 text-sm font-bold">{t("staff.permissions")}</legend>
      <div className="grid gap-1 sm:grid-cols-2">
        {permissions.map((p) => (
          <label key={p.name} className="flex items-center gap-2 text-sm" htmlFor={`${idPrefix}-${p.name}`}>
            <input
              id={`${idPrefix}-${p.name}`}
              type="checkbox"
              name="permissions"
              value={p.name}
              defaultChecked={checked.includes(p.name)}
              disabled={!p.grantable}
            />
            <span>{t(permissionKey(p.name))}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/**
 * The role, over the permission list: picking a ready-made role (ROLE_PRESETS) fills the form's permission boxes
 * that the actor may grant; they can still be adjusted before saving. Without JavaScript the boxes stay as ticked.
 */
function RoleSelect({ roles, value, id, presets }: { roles: readonly string[]; value?: string; id: string; presets: Loaded["presets"] }) {
  const { t } = useTranslation();
  const fill = (event: ChangeEvent<HTMLSelectElement>) => {
    const preset = presets[event.currentTarget.value];
    if (!preset) return;
    const boxes = event.currentTarget.form?.querySelectorAll<HTMLInputElement>('input[type="checkbox"][name="permissions"]') ?? [];
    for (const box of boxes) if (!box.disabled) box.checked = preset.includes(box.value);
  };
  return (
    <Field id={id} label={t("staff.role")} hint={t("staff.roleHint")}>
      {(control) => (
        <select {...control} name="role" defaultValue={value} onChange={fill} className={`${control.className} h-11`} data-testid="role-select">
          {roles.map((r) => (
            <option key={r} value={r}>
              {t(`staff.roles.${r}`)}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

const primary = "rounded-md bg-desert-600 px-4 py-2 text-sm font-bold text-white hover:bg-desert-700";
const secondary = "rounded-md border border-sand-300 px-4 py-2 text-sm font-bold hover:bg-sand-100";

/** A toast's title that says what happened (not «تم» above «تم إرسال…»): an invitation sent names itself. */
const answerTitle = (result: { ok: boolean; intent: Intent }) =>
  !result.ok ? "staff.failedTitle" : result.intent === "invite" || result.intent === "resend" ? `desk.staffDone.${result.intent}` : "staff.doneTitle";

export default function UsersPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const result = actionData;
  useAnswerToast(result ? { title: answerTitle(result), message: result.message, variant: result.ok ? "success" : "destructive" } : null, result?.at);
  const inviteErrors = result?.intent === "invite" ? result.errors : undefined;

  return (
    <section data-testid="admin-users" className="space-y-8">
      <div>
        <h1 className="text-2xl font-bold">{t("admin.users")}</h1>
        <p className="mt-1 text-ink-soft">{t("staff.intro")}</p>
      </div>

      {result && (
        <p
          role={result.ok ? "status" : "alert"}
          data-testid="users-result"
          data-ok={result.ok}
          className={`rounded-md border px-4 py-2 text-sm ${result.ok ? "border-palm-600 bg-emerald-50" : "border-red-600 bg-red-50 text-red-900"}`}
        >
          {t(result.message)}
        </p>
      )}

      <Form method="post" className="space-y-4 rounded-lg border border-sand-200 bg-white p-4 shadow-sm sm:p-6" data-testid="invite-form">
        <h2 className="text-lg font-bold">{t("staff.inviteTitle")}</h2>
        <input type="hidden" name="intent" value="invite" />
        <div className="grid gap-4 sm:grid-cols-3">
          <InputField
            id="invite-email"
            name="email"
            label={t("auth.email")}
            error={inviteErrors?.email}
            type="email"
            required
            maxLength={EMAIL_MAX}
            dir="ltr"
            controlClassName="h-11"
          />
          <InputField id="invite-name" name="fullName" label={t("auth.fullName")} error={inviteErrors?.fullName} maxLength={NAME_MAX} controlClassName="h-11" />
          <RoleSelect roles={loaderData.inviteRoles} value="writer" id="invite-role" presets={loaderData.presets} />
        </div>
        <PermissionBoxes permissions={loaderData.permissions} checked={loaderData.presets.writer ?? ["content.write"]} idPrefix="invite-permission" />
        <p className="text-xs text-ink-soft">{t("staff.permissionsHint")}</p>
        <button type="submit" className={primary} data-testid="invite-submit">
          {t("staff.inviteSubmit")}
        </button>
      </Form>

      <ul className="space-y-3" data-testid="accounts">
        {loaderData.accounts.map((a) => (
          <li key={a.id} className="rounded-lg border border-sand-200 bg-white p-4 shadow-sm" data-testid="account" data-email={a.email}>
            <div className="flex flex-wrap items-center gap-3">
              <Avatar name={a.name} initials={a.initials} url={a.avatarUrl} />
              <div className="min-w-0 flex-1 basis-48">
                <p className="truncate font-bold">
                  {a.name} {a.self && <span className="text-sm font-normal text-ink-soft">({t("staff.you")})</span>}
                </p>
                <p className="truncate text-sm text-ink-soft" dir="ltr">
                  {a.email}
                </p>
              </div>
              <span className="rounded-full bg-sand-100 px-3 py-1 text-xs font-bold">{t(`staff.roles.${a.role}`)}</span>
              <span
                className={`rounded-full px-3 py-1 text-xs font-bold ${a.disabled ? "bg-red-100 text-red-900" : a.emailVerified ? "bg-emerald-100 text-emerald-900" : "bg-amber-100 text-amber-900"}`}
                data-testid="account-status"
              >
                {t(a.disabled ? "staff.disabled" : a.emailVerified ? "staff.active" : "staff.pending")}
              </span>
              <span className="text-xs text-ink-soft">{formatDate(a.createdAt, lang, "short")}</span>
            </div>
            {a.manageable && (
              <div className="mt-4 grid gap-4 border-t border-sand-100 pt-4 lg:grid-cols-[1fr_auto]">
                <Form method="post" className="space-y-3" data-testid="access-form">
                  <input type="hidden" name="intent" value="access" />
                  <input type="hidden" name="userId" value={a.id} />
                  <div className="max-w-xs">
                    <RoleSelect roles={loaderData.roles} value={a.role} id={`role-${a.id}`} presets={loaderData.presets} />
                  </div>
                  <PermissionBoxes permissions={loaderData.permissions} checked={a.permissions} idPrefix={`permission-${a.id}`} />
                  <button type="submit" className={primary} data-testid="access-save">
                    {t("admin.save")}
                  </button>
                </Form>
                <div className="flex flex-wrap items-start gap-2">
                  {!a.emailVerified && !a.disabled && (
                    <Form method="post">
                      <input type="hidden" name="intent" value="resend" />
                      <input type="hidden" name="userId" value={a.id} />
                      <button type="submit" className={secondary} data-testid="resend-invite">
                        {t("staff.resend")}
                      </button>
                    </Form>
                  )}
                  <Form method="post">
                    <input type="hidden" name="intent" value={a.disabled ? "enable" : "disable"} />
                    <input type="hidden" name="userId" value={a.id} />
                    <button
                      type="submit"
                      className={a.disabled ? secondary : `${secondary} text-red-700`}
                      data-testid={a.disabled ? "enable-account" : "disable-account"}
                    >
                      {t(a.disabled ? "staff.enable" : "staff.disable")}
                    </button>
                  </Form>
                </div>
              </div>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminError error={error} />;
}
