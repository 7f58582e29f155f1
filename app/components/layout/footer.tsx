import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { FOOTER_LINKS } from "#domain/navigation.ts";
import { FacebookIcon, InstagramIcon, TwitterIcon, YoutubeIcon } from "#app/components/ui/icons.tsx";
import { useLocalPath } from "#app/lib/addresses.ts";
import { Logo } from "./logo.tsx";

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

export function Footer({ siteName, logoUrl, logoFallbackUrl, social, year }: FooterProps) {
  const { t } = useTranslation();
  const socialClass = "inline-flex h-10 w-10 items-center justify-center rounded-full bg-white/10 text-white hover:bg-desert-600";
  return (
    <footer className="mt-16 bg-ink text-sand-200" data-testid="site-footer">
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
        <p className="mx-auto max-w-7xl px-4 py-4 text-sm" data-testid="copyright">
          © {year} {siteName}. {t("footer.rights")}
        </p>
      </div>
    </footer>
  );
}
