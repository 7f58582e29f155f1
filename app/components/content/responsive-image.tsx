import { useEffect, useRef, type SyntheticEvent } from "react";
import { imageSources } from "#domain/image-sources.ts";
import { libraryText, objectPositionOf } from "#domain/image-details.ts";
import { useLanguage } from "#app/lib/i18n.ts";
import { textProps } from "#domain/localized.ts";
import { useImageDetails } from "./image-details.tsx";

type ResponsiveImageProps = {
  url: string;
  /** The slot's width on the page, for the browser's pick among the widths (the `sizes` attribute). */
  sizes: string;
  /** Used when the URL does not carry the intrinsic size (demo SVGs, external images). */
  width: number;
  height: number;
  /** The page's main image (its LCP): fetched first and at once. */
  priority?: boolean;
  /** Below the fold: fetched when scrolled near. */
  lazy?: boolean;
  className?: string;
  /**
   * The text alternative when the media library has none in the reader's language (default "": decorative,
   * as a card's picture beside its linked title is). The library's alt text, when written, always wins.
   */
  alt?: string;
};

/**
 * An image at the width its slot needs, in WebP where the browser takes it (decision 0104): a <picture>
 * when the stored name lists resized copies, a plain <img> otherwise. No script: the browser chooses. A
 * file that fails to load is hidden rather than shown broken. A picture of the media library (the page's
 * ImageDetailsProvider) carries its alt text in the reader's language and, cropped to its slot, keeps its
 * focal point in view (`object-position`).
 */
export function ResponsiveImage({ url, sizes, width, height, priority, lazy, className, alt = "" }: ResponsiveImageProps) {
  const lang = useLanguage();
  const details = useImageDetails(url);
  const sources = imageSources(url);
  const altText = libraryText(lang, details?.alt) || alt;
  const position = objectPositionOf(details);
  const img = (
    <img
      src={sources.src}
      srcSet={sources.srcSet}
      sizes={sources.srcSet ? sizes : undefined}
      alt={altText}
      {...(altText ? { lang: textProps(lang, altText).lang } : {})}
      style={position ? { objectPosition: position } : undefined}
      width={sources.width ?? details?.width ?? width}
      height={sources.height ?? details?.height ?? height}
      loading={lazy && !priority ? "lazy" : undefined}
      decoding={priority ? undefined : "async"}
      fetchPriority={priority ? "high" : undefined}
      onError={(e) => (e.currentTarget.style.display = "none")}
      className={className}
    />
  );
  if (!sources.webpSrcSet) return img;
  return (
    // `contents`: the <img> keeps its place in the card's layout as if the <picture> were not there.
    <picture className="contents">
      <source type="image/webp" srcSet={sources.webpSrcSet} sizes={sizes} />
      {img}
    </picture>
  );
}

/** A card's slot in the section grids: the full width on a phone, a half, then a third of the page. */
export const CARD_IMAGE_SIZES = "(min-width: 1280px) 410px, (min-width: 1024px) 33vw, (min-width: 640px) 50vw, calc(100vw - 2rem)";

/**
 * The 16:9 image at the top of a card in a section's grid (emirates, media, literature): lazy unless the card
 * is above the fold, hidden when it fails to load.
 */
export function CardImage({ url, eager, className = "aspect-video w-full object-cover" }: { url: string; eager?: boolean; className?: string }) {
  return <ResponsiveImage url={url} sizes={CARD_IMAGE_SIZES} width={640} height={360} lazy={!eager} className={className} />;
}

/**
 * Calls `onFail` when an <img> cannot be loaded: on its error event, and also when it failed before the page
 * hydrated, which no error handler hears. Spread the result on the image.
 */
export function useImageFailure(onFail: (img: HTMLImageElement) => void) {
  const ref = useRef<HTMLImageElement>(null);
  const latest = useRef(onFail);
  useEffect(() => {
    latest.current = onFail;
  });
  useEffect(() => {
    const img = ref.current;
    if (img?.complete && img.naturalWidth === 0) latest.current(img);
  }, []);
  return { ref, onError: (e: SyntheticEvent<HTMLImageElement>) => onFail(e.currentTarget) };
}
