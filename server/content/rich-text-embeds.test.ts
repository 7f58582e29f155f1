import { describe, expect, it } from "vitest";
import { checkConfig } from "#server/config.server.ts";
import { richTextForPage } from "./rich-text.server.ts";

const YT = "https://youtu.be/dQw4w9WgXcQ";

describe("richTextForPage", () => {
  it("sanitises, then marks a pasted address as an embed (allowed or asking)", () => {
    const stored = `<p onclick="x()"><a href="${YT}" target="_blank">${YT}</a></p><iframe src="https://evil.example"></iframe>`;
    const asking = richTextForPage(stored, []);
    expect(asking).toMatch(/^<figure data-embed="youtube" [^>]*data-embed-url="https:\/\/youtu\.be\/dQw4w9WgXcQ"><\/figure>$/);
    expect(richTextForPage(stored, ["youtube"])).toContain(" data-embed-allowed>");
  });

  it("never lets a stored body forge a marked embed", () => {
    const forged = '<figure data-embed="youtube" data-embed-shape="video" data-embed-src="https://evil.example" data-embed-url="x"></figure>';
    expect(richTextForPage(forged, [])).toBe("<figure></figure>");
  });
});

describe("EMBEDS_ALLOWED", () => {
  it("is empty by default and reads a list of known services", () => {
    expect(checkConfig({}).config.EMBEDS_ALLOWED).toEqual([]);
    expect(checkConfig({ EMBEDS_ALLOWED: "Facebook, youtube" }).config.EMBEDS_ALLOWED).toEqual(["youtube", "facebook"]);
  });

  it("names an unknown service in the configuration check's errors", () => {
    const { errors } = checkConfig({ EMBEDS_ALLOWED: "youtube,myspace" });
    expect(errors.join("\n")).toMatch(/EMBEDS_ALLOWED.*myspace/);
  });
});
