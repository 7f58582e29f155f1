import { useState, type FormEvent } from "react";
import { useNavigate, useRevalidator } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import { useToast } from "#app/components/ui/toast.tsx";

/**
 * Signs out on the server (/auth/sign-out). With JavaScript: the spec's confirmation toast, then the home
 * page with the header refreshed; on failure the 'Sign out Failed' toast with the error or 'Something went
 * wrong'. Without it, a plain post that lands on the home page.
 *
 * A plain fetch rather than a fetcher: a fetcher would revalidate the back-office page first, whose loader
 * (rightly) no longer lets the signed-out visitor in.
 */
export function SignOutButton({ className, testId = "sign-out-button" }: { className?: string; testId?: string }) {
  const { t } = useTranslation();
  const toast = useToast();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState(false);

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setBusy(true);
    try {
      const res = await fetch("/auth/sign-out", { method: "POST", body: new URLSearchParams({ mode: "fetch" }), headers: { Accept: "application/json" } });
      const answer = (await res.json().catch(() => null)) as { ok?: boolean; error?: string } | null;
      if (!res.ok || !answer?.ok) throw new Error(answer?.error || "");
      toast({ title: t("admin.signedOut"), variant: "success" });
      await navigate("/", { replace: true });
      // The header learns there is nobody signed in any more.
      await revalidator.revalidate();
    } catch (error) {
      toast({ title: t("adminShell.signOutFailed"), description: (error as Error).message || t("adminShell.somethingWrong"), variant: "destructive" });
      setBusy(false);
    }
  };

  return (
    <form method="post" action="/auth/sign-out" onSubmit={onSubmit}>
      <input type="hidden" name="mode" value="redirect" />
      <button type="submit" disabled={busy} data-testid={testId} className={className}>
        {t("admin.signOut")}
      </button>
    </form>
  );
}
