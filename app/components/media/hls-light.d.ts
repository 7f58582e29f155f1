// hls.js ships no typings for its "light" build; its API is the full build's minus subtitles, alternate
// audio, DRM, CMCD, content steering and interstitials, none of which the player uses.
declare module "hls.js/light" {
  export { default } from "hls.js";
}
