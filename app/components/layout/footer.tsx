import { useLocation } from "react-router";
import { Link } from "#app/lib/link.tsx";
import { useTranslation } from "#app/lib/i18n.ts";
import { FOOTER_LINKS } from "#domain/navigation.ts";
import { FOOTER_NEWSLETTER_ANCHOR, footerNewsletterBack, footerNewsletterOutcome, showsFooterNewsletter } from "#domain/footer-newsletter.ts";
import formsScript from "#app/enhance/forms.js?url&no-inline";
import { InputField } from "#app/components/forms/field.tsx";
import { localizeDigits } from "#domain/format.ts";
import type { Language } from "#domain/language.ts";
import { FacebookIcon, InstagramIcon, TwitterIcon, YoutubeIcon } from "#app/components/ui/icons.tsx";
import { useLocalPath } from "#app/lib/addresses.ts";
import { Logo } from "./logo.tsx";
import { ReadingPreferences } from "./reading-preferences.tsx";

type SocialLinks = { facebook: string | null; twitter: string | null; instagram: string | null; youtube: string | null };
type FooterProps = { siteName: string; logoUrl: string; logoFallbackUrl: string; social: SocialLinks; year: number };

const SOCIAL = [
  { key: "facebook", Icon: FacebookIcon },
  { key: "twitter", Icon: TwitterIcon },
  { key: "instagram", Icon: InstagramIcon },
  { key: "youtube", Icon: YoutubeIcon },
] as const;

function LinkColumn({ title, links }: { title: string; links: readonly { to: string; label: string }[] }) {
  const { t } = useTranslation();
  const local = useLocalPath();
  return (
    <div>
      <h2 className="mb-3 text-base font-bold text-white">{title}</h2>
      <ul className="space-y-2">
        {links.map((l) => (
          <li key={l.to}>
            <Link to={local(l.to)} className="text-sand-200 hover:text-white hover:underline">
              {t(l.label)}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

const FIELD_ERRORS = { required: "newsletter.errors.emailRequired", invalid: "newsletter.errors.email" } as const;

/**
 * The newsletter sign-up every reading page ends with (issue 46). The form is the same for every reader, so pages
 * stay cacheable; it posts to /newsletter/subscribe (app/routes/public/newsletter-subscribe.ts), which sends the
 * reader back here with the outcome in the address (`?notice=newsletter-…#newsletter`), read below: the
 * thank-you or the message shows where the reader pressed. With JavaScript (app/enhance/forms.js, loaded by
 * app/enhance/reading.js once the form is focused) the page is not left: the answer takes the form's place and the
 * live region under it says so.
 */
function FooterNewsletter() {
  const { t } = useTranslation();
  const local = useLocalPath();
  const { pathname, search } = useLocation();
  const outcome = footerNewsletterOutcome(search);
  const fieldError = outcome === "required" || outcome === "invalid" ? FIELD_ERRORS[outcome] : undefined;
  const failed = outcome === "limited" ? "newsletter.rateLimited" : outcome === "failed" ? "newsletter.failed" : null;
  return (
    <div className="border-b border-white/10">
      <section
        id={FOOTER_NEWSLETTER_ANCHOR}
        aria-labelledby="footer-newsletter-title"
        className="mx-auto grid max-w-7xl scroll-mt-4 gap-4 px-4 py-8 lg:grid-cols-2 lg:items-end"
        data-testid="footer-newsletter"
        data-form-region="footer-newsletter"
      >
        <div>
          <h2 id="footer-newsletter-title" className="text-lg font-bold text-white">
            {t("newsletter.title")}
          </h2>
          <p className="mt-1 max-w-prose leading-relaxed">{t("footerNewsletter.text")}</p>
        </div>
        {outcome === "sent" ? (
          <p
            role="status"
            tabIndex={-1}
            className="rounded-md bg-white/10 p-3 font-bold text-white"
            data-testid="footer-newsletter-sent"
            data-answer=""
            data-live="footer-newsletter-live"
          >
            {t("newsletter.sent")}
          </p>
        ) : (
          <form
            method="post"
            action={local("/newsletter/subscribe")}
            // The server's messages (the spec's), not the browser's bubble, with or without JavaScript.
            noValidate
            className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-start"
            data-testid="footer-newsletter-form"
            data-enhance=""
            data-enhance-src={formsScript}
            data-failed-title={t("errors.loadFailedTitle")}
            data-failed-text={t("newsletter.failed")}
          >
            <input type="hidden" name="back" value={footerNewsletterBack(pathname, search)} />
            <InputField
              id="footer-newsletter-email"
              name="email"
              label={t("newsletter.email")}
              look="dark"
              className="min-w-0 flex-1"
              error={fieldError}
              errorTestId="footer-newsletter-error"
              type="email"
              inputMode="email"
              autoComplete="email"
              dir="ltr"
              required
              maxLength={254}
              placeholder="name@example.com"
              controlClassName="text-start"
              check={{ required: t("newsletter.errors.emailRequired"), invalid: t("newsletter.errors.email"), tooLong: t("newsletter.errors.email") }}
            />
            <button
              type="submit"
              className="rounded-md bg-desert-600 px-5 py-2 font-bold text-white hover:bg-desert-700 disabled:cursor-wait disabled:opacity-70 sm:mt-7"
              data-testid="footer-newsletter-submit"
              data-pending-label={t("newsletter.sending")}
            >
              {t("newsletter.submit")}
            </button>
            {failed && (
              <p
                role="alert"
                className="text-sm font-bold text-amber-200 sm:basis-full"
                data-testid="footer-newsletter-failed"
                data-answer=""
                data-live="footer-newsletter-live"
              >
                {t(failed)}
              </p>
            )}
          </form>
        )}
      </section>
      {/* Outside the region the answer replaces, so that a screen reader hears the answer (app/enhance/forms.js). */}
      <p id="footer-newsletter-live" aria-live="polite" className="sr-only" data-testid="footer-newsletter-live" />
    </div>
  );
}

export function Footer({ siteName, logoUrl, logoFallbackUrl, social, year }: FooterProps) {
  const { t, i18n } = useTranslation();
  const socialClass = "inline-flex h-10 w-10 items-center justify-center rounded-full bg-white/10 text-white hover:bg-desert-600";
  const { pathname } = useLocation();
  return (
    <footer className="mt-16 bg-ink text-sand-200" data-testid="site-footer">
      {showsFooterNewsletter(pathname) && <FooterNewsletter />}
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-10 sm:grid-cols-2 lg:grid-cols-5">
        <div className="lg:col-span-2">
          <Logo src={logoUrl} fallbackSrc={logoFallbackUrl} name={siteName} className="[&_span]:text-white" />
          <p className="mt-3 max-w-sm leading-relaxed">{t("footer.about")}</p>
          <h2 className="mb-2 mt-5 text-base font-bold text-white">{t("footer.followUs")}</h2>
          <div className="flex gap-2">
            {SOCIAL.map(({ key, Icon }) => {
              const url = social[key];
              const label = t(`footer.${key}`);
              return url ? (
                <a key={key} href={url} target="_blank" rel="noopener noreferrer" aria-label={label} className={socialClass} data-testid={`social-${key}`}>
                  <Icon />
                </a>
              ) : (
                <button
                  key={key}
                  type="button"
                  aria-label={label}
                  className={socialClass}
                  data-testid={`social-${key}`}
                  // Said by app/enhance/reading.js.
                  data-toast-title={t("common.featureNotImplemented")}
                  data-toast-description={t("common.featureNotImplementedDescription")}
                >
                  <Icon />
                </button>
              );
            })}
          </div>
        </div>
        <LinkColumn title={t("footer.quickLinks")} links={FOOTER_LINKS.quickLinks} />
        <LinkColumn title={t("footer.categories")} links={FOOTER_LINKS.categories} />
        <LinkColumn title={t("footer.legal")} links={FOOTER_LINKS.legal} />
      </div>
      <div className="border-t border-white/10">
        <ReadingPreferences />
        <p className="mx-auto max-w-7xl px-4 py-4 text-sm" data-testid="copyright">
          © {localizeDigits(String(year), i18n.language as Language)} {siteName}. {t("footer.rights")}
        </p>
      </div>
    </footer>
  );
}
