import { useLocalPath } from "#app/lib/addresses.ts";
import { Link } from "#app/lib/link.tsx";
import { FacebookIcon } from "#app/components/ui/icons.tsx";
import { useImageFailure } from "#app/components/content/responsive-image.tsx";
import { excerpt, formatDate, isoDate } from "#domain/format.ts";
import { useLanguage, useTranslation } from "#app/lib/i18n.ts";
import { SOCIAL_COVER_IMAGE, SOCIAL_EXCERPT_LENGTH } from "#domain/social.ts";
import type { SocialPost } from "#server/social/posts.server.ts";
import { firstStrongDirection, linesOf, segmentsOf, textLanguage } from "#domain/bidi.ts";

export type { SocialPost };

/** Links out of a post open in a new tab and tell the destination nothing about the page they came from. */
const EXTERNAL = { target: "_blank", rel: "noopener noreferrer nofollow ugc" } as const;

/** A post picture that failed (before or after hydration) shows the cover image instead, once. */
function showCover(img: HTMLImageElement) {
  if (img.dataset.fallback) return;
  img.dataset.fallback = "cover";
  img.src = SOCIAL_COVER_IMAGE;
}

function PostImage({ src, eager }: { src: string; eager?: boolean }) {
  const failure = useImageFailure(showCover);
  return (
    <img
      {...failure}
      src={src}
      alt=""
      width={640}
      height={360}
      loading={eager ? "eager" : "lazy"}
      decoding="async"
      className="aspect-video w-full bg-sand-100 object-cover"
      data-testid="social-post-image"
      data-own-fallback=""
      // Where the page does not hydrate, app/enhance/reading.js shows the cover from this.
      data-fallback-src={SOCIAL_COVER_IMAGE}
    />
  );
}

/** A line of a post: its own direction and language, its links isolated left to right. */
function PostText({ text, className }: { text: string; className?: string }) {
  return (
    <p dir={firstStrongDirection(text) ?? "auto"} lang={textLanguage(text) ?? undefined} className={className}>
      {segmentsOf(text).map((s, i) =>
        s.kind === "link" ? (
          <a key={i} href={s.href} {...EXTERNAL} dir="ltr" className="break-all text-desert-700 underline">
            {s.text}
          </a>
        ) : (
          s.text
        ),
      )}
    </p>
  );
}

/**
 * One post of the page. `compact` (home and news blocks) shows the text cut at 120 characters with an
 * ellipsis; `full` (the /facebook page) shows every line and the link the post shares.
 */
export function SocialPostCard({ post, variant, eager }: { post: SocialPost; variant: "compact" | "full"; eager?: boolean }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const date = post.createdTime ? formatDate(post.createdTime, lang) : "";
  return (
    <article className="flex flex-col overflow-hidden rounded-xl border border-sand-200 bg-white shadow-sm" data-testid="social-post" data-post-id={post.id}>
      {post.imageUrl ? <PostImage src={post.imageUrl} eager={eager} /> : null}
      <div className="flex flex-1 flex-col gap-3 p-4">
        <p className="flex items-center gap-2 text-sm text-ink-soft">
          <FacebookIcon width={16} height={16} className="text-[#1877f2]" />
          {post.authorName && (
            <bdi className="font-bold text-ink" dir="auto">
              {post.authorName}
            </bdi>
          )}
          {post.authorName && date && <span aria-hidden="true">·</span>}
          {date && <time dateTime={isoDate(post.createdTime)}>{date}</time>}
        </p>
        {post.message &&
          (variant === "compact" ? (
            <PostText text={excerpt(post.message, SOCIAL_EXCERPT_LENGTH)} className="leading-relaxed" />
          ) : (
            <div className="flex flex-col gap-2 leading-relaxed" data-testid="social-post-text">
              {linesOf(post.message).map((line, i) => (
                <PostText key={i} text={line.text} />
              ))}
            </div>
          ))}
        {variant === "full" && post.link && (
          <a
            href={post.link.url}
            {...EXTERNAL}
            className="block rounded-lg border border-sand-200 bg-sand-50 p-3 hover:bg-sand-100"
            data-testid="social-post-link"
          >
            {post.link.title && (
              <span className="block font-bold" dir="auto">
                {post.link.title}
              </span>
            )}
            <span className="block text-sm text-ink-soft" dir="ltr">
              {post.link.host}
            </span>
          </a>
        )}
        {post.permalinkUrl && (
          <a
            href={post.permalinkUrl}
            {...EXTERNAL}
            className="mt-auto self-start text-sm font-bold text-desert-700 hover:underline"
            aria-label={date ? `${t("social.viewPost")} — ${date} (${t("social.newTab")})` : `${t("social.viewPost")} (${t("social.newTab")})`}
          >
            {t("social.viewPost")}
          </a>
        )}
      </div>
    </article>
  );
}

export function SocialPostGrid({ posts, variant = "compact" }: { posts: SocialPost[]; variant?: "compact" | "full" }) {
  return (
    <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3" data-testid="social-posts">
      {posts.map((post) => (
        <SocialPostCard key={post.id} post={post} variant={variant} />
      ))}
    </div>
  );
}

/** The block below the news listing: the page's posts without a header (public-site.md §2, News listing). */
export function SocialBlock({ posts, testId = "news-social" }: { posts: SocialPost[] | null | undefined; testId?: string }) {
  const { t } = useTranslation();
  const local = useLocalPath();
  if (!posts?.length) return null;
  return (
    <section aria-label={t("social.title")} className="mt-12" data-testid={testId}>
      <SocialPostGrid posts={posts} />
      <p className="mt-4 text-center">
        <Link to={local("/facebook")} className="font-bold text-desert-700 hover:underline">
          {t("social.homeMore")}
        </Link>
      </p>
    </section>
  );
}
