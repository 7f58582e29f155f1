import { imageSources } from "#domain/image-sources.ts";

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
};

/**
 * An image at the width its slot needs, in WebP where the browser takes it (decision 0104): a <picture>
 * when the stored name lists resized copies, a plain <img> otherwise. No script: the browser chooses. A
 * file that fails to load is hidden rather than shown broken.
 */
export function ResponsiveImage({ url, sizes, width, height, priority, lazy, className }: ResponsiveImageProps) {
  const sources = imageSources(url);
  const img = (
    <img
      src={sources.src}
      srcSet={sources.srcSet}
      sizes={sources.srcSet ? sizes : undefined}
      alt=""
      width={sources.width ?? width}
      height={sources.height ?? height}
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
