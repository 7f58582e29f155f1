/** Addresses shared by the social feed's server module and its components (public-site.md §2, social feed). */

/** Post pictures are served from our own origin (docs/decisions/0061-social-images-proxy.md). */
export const SOCIAL_IMAGE_PREFIX = "/social/image/";

/** The picture shown when a post's own one cannot be had ("a broken post image falls back to the cover image"). */
export const SOCIAL_COVER_IMAGE = "/social/cover.svg";

/** public-site.md §2, Home: "A home post excerpt is cut at 120 characters followed by an ellipsis". */
export const SOCIAL_EXCERPT_LENGTH = 120;
