import { describe, expect, it } from "vitest";
import { isVideoId, parseVideoSource, PLAYBACK_MESSAGES, playbackPlan } from "./video-source.ts";

const ID = "3e7647d2-b5e7-4a3a-b71c-41bef15475b4";

describe("the video identifier (public-site.md §5)", () => {
  it("is 8-4-4-4-12 hexadecimal digits, 36 characters, in either case", () => {
    expect(isVideoId(ID)).toBe(true);
    expect(isVideoId(ID.toUpperCase())).toBe(true);
    expect(isVideoId("00000000-0000-0000-0000-000000000000")).toBe(true);
  });

  it("rejects anything else", () => {
    for (const bad of [
      "",
      ID.slice(1), // 35 characters
      `${ID}0`, // 37 characters
      ID.replace(/-/g, ""), // no hyphens
      ID.replace("3e7647d2", "3e7647dg"), // not hexadecimal
      "3e7647d2b-5e7-4a3a-b71c-41bef15475b4", // 9-3-4-4-12
      ` ${ID}`.slice(0, 36),
      `${ID}\n`,
      null,
      12345,
    ]) {
      expect(isVideoId(bad), String(bad)).toBe(false);
    }
  });
});

describe("parseVideoSource", () => {
  it("takes a bare id as a hosted video, lower-cased", () => {
    expect(parseVideoSource(ID)).toEqual({ kind: "id", id: ID });
    expect(parseVideoSource(` ${ID.toUpperCase()} `)).toEqual({ kind: "id", id: ID });
  });

  it("refuses URLs of the storage host with the spec's message, regional endpoints included", () => {
    for (const url of [
      "https://storage.bunnycdn.com/zone/videos/a.mp4",
      "https://ny.storage.bunnycdn.com/zone/a.mp4",
      "http://STORAGE.BUNNYCDN.COM/zone/a.m3u8",
      "//storage.bunnycdn.com/zone/a.mp4",
    ]) {
      expect(parseVideoSource(url), url).toEqual({ kind: "invalid", message: "Invalid video source - Storage URLs cannot be used for video playback" });
    }
    // A configured storage host is refused the same way; a look-alike host is not.
    expect(parseVideoSource("https://files.example.org/a.mp4", { storageHosts: ["files.example.org"] }).kind).toBe("invalid");
    expect(parseVideoSource("https://notstorage.bunnycdn.com.evil.net/a.mp4").kind).toBe("url");
  });

  it("recognises the video host's URLs and plays them as the id they name", () => {
    expect(parseVideoSource(`https://iframe.mediadelivery.net/embed/12345/${ID}`)).toEqual({ kind: "id", id: ID });
    expect(parseVideoSource(`https://player.mediadelivery.net/play/12345/${ID}?autoplay=1`)).toEqual({ kind: "id", id: ID });
    expect(parseVideoSource(`https://vz-abc123.b-cdn.net/${ID}/playlist.m3u8`)).toEqual({ kind: "id", id: ID });
    // On a file pull zone (same domain) an id deeper in the path is just a file name.
    expect(parseVideoSource(`https://sahara.b-cdn.net/uploads/${ID}/clip.mp4`)).toMatchObject({ kind: "url", format: "file" });
  });

  it("plays other URLs and same-site paths as they are, HLS by its .m3u8 extension", () => {
    expect(parseVideoSource("https://cdn.example.org/v/master.m3u8?token=x")).toEqual({
      kind: "url",
      url: "https://cdn.example.org/v/master.m3u8?token=x",
      format: "hls",
    });
    expect(parseVideoSource("https://cdn.example.org/v/clip.mp4")).toMatchObject({ kind: "url", format: "file" });
    expect(parseVideoSource("/uploads/demo/video/sample.mp4")).toEqual({ kind: "url", url: "/uploads/demo/video/sample.mp4", format: "file" });
    expect(parseVideoSource("/video-files/x/playlist.m3u8")).toMatchObject({ kind: "url", format: "hls" });
  });

  it("refuses what cannot be a video source", () => {
    expect(parseVideoSource("")).toEqual({ kind: "invalid", message: "Invalid video source - empty" });
    expect(parseVideoSource(undefined).kind).toBe("invalid");
    expect(parseVideoSource("javascript:alert(1)")).toEqual({ kind: "invalid", message: "Invalid video source - unsupported protocol javascript" });
    expect(parseVideoSource("data:video/mp4;base64,AAAA").kind).toBe("invalid");
    expect(parseVideoSource("not a video")).toEqual({ kind: "invalid", message: "Invalid video source - not a video id or URL" });
    expect(parseVideoSource("/uploads/../secret.mp4")).toEqual({ kind: "invalid", message: "Invalid video source - malformed path" });
    expect(parseVideoSource('/a"><script>.mp4').kind).toBe("invalid");
    expect(parseVideoSource("/\\evil.example/x.mp4").kind).toBe("invalid");
  });

  it("keeps the §8 messages verbatim", () => {
    expect(PLAYBACK_MESSAGES.noValidUrls).toBe("No valid video URLs available");
    expect(PLAYBACK_MESSAGES.noMoreUrls).toBe("No more video URLs to try");
    expect(PLAYBACK_MESSAGES.hlsAllFailed).toBe("Cannot load video with HLS - all URLs failed");
    expect(PLAYBACK_MESSAGES.hlsUnsupported).toBe("HLS streaming not supported by this browser");
    expect(PLAYBACK_MESSAGES.loadFailed("MEDIA_ERR_NETWORK", 2)).toBe("Failed to load video: MEDIA_ERR_NETWORK (Code: 2)");
    expect(PLAYBACK_MESSAGES.authRequired).toBe("Authentication required - switching to iframe player");
  });
});

describe("playbackPlan: the order a hosted video is tried in (public-site.md §4)", () => {
  it("tries the adaptive stream, then the file, keeping the embed player for last", () => {
    expect(playbackPlan({ hls: "/v/p.m3u8", mp4: "/v/play_720p.mp4", embed: "https://iframe.mediadelivery.net/embed/1/x", thumbnail: "/t.jpg" })).toEqual({
      attempts: [
        { url: "/v/p.m3u8", format: "hls" },
        { url: "/v/play_720p.mp4", format: "file" },
      ],
      embed: "https://iframe.mediadelivery.net/embed/1/x",
    });
    expect(playbackPlan({ mp4: "/v/play_720p.mp4" })).toEqual({ attempts: [{ url: "/v/play_720p.mp4", format: "file" }] });
  });

  it("goes straight to the embed player when the host has no file yet", () => {
    expect(playbackPlan({ embed: "https://iframe.mediadelivery.net/embed/1/x", thumbnail: "/t.jpg" })).toEqual({
      attempts: [],
      embed: "https://iframe.mediadelivery.net/embed/1/x",
    });
  });

  it("has nothing to offer without a URL (the player then says 'No valid video URLs available')", () => {
    expect(playbackPlan(null)).toBeNull();
    expect(playbackPlan({ thumbnail: "/t.jpg" })).toBeNull();
    expect(playbackPlan({ hls: "", mp4: "", embed: "" })).toBeNull();
  });
});
