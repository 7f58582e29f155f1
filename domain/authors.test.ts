/** Author profiles' rules shared by the form, the JSON API and the reading pages (decision 0121). */
import { describe, expect, it } from "vitest";
import { authorBio, authorName, authorPath, authorSlugOf, bylineLinks, checkAuthorInput } from "./authors.ts";

const profile = { id: 1, slug: "مريم-بنت-أحمد", name: "مريم بنت أحمد", name_fr: "Mariem Mint Ahmed", name_en: null };

describe("author profiles", () => {
  it("names an author in the reader's language, falling back to the Arabic name", () => {
    expect(authorName("ar", profile)).toBe("مريم بنت أحمد");
    expect(authorName("fr", profile)).toBe("Mariem Mint Ahmed");
    expect(authorName("en", profile)).toBe("مريم بنت أحمد");
    expect(authorName("en", { ...profile, name_en: "Mariem Ahmed" })).toBe("Mariem Ahmed");
    expect(authorBio("fr", { bio: "نبذة", bio_fr: null, bio_en: "Bio" })).toBe("نبذة");
  });

  it("links each author of a byline to their page, in order", () => {
    const guest = { id: 2, slug: "guest", name: "ضيف", name_fr: null, name_en: null };
    expect(bylineLinks("ar", [profile, guest])).toEqual([
      { name: "مريم بنت أحمد", href: `/authors/${encodeURIComponent("مريم-بنت-أحمد")}` },
      { name: "ضيف", href: "/authors/guest" },
    ]);
    expect(bylineLinks("ar", undefined)).toEqual([]);
    expect(authorPath("a-b")).toBe("/authors/a-b");
  });

  it("makes the slug from the name (Arabic kept, harakat dropped) when none is typed", () => {
    expect(authorSlugOf("مُحَمَّد ولد سيدي")).toBe("محمد-ولد-سيدي");
    expect(authorSlugOf("!!!")).toBe("author");
    const checked = checkAuthorInput({ name: "  محمد   ولد سيدي " });
    expect(checked).toEqual({ ok: true, value: { name: "محمد ولد سيدي", slug: "محمد-ولد-سيدي" } });
  });

  it("refuses a short name, a bad slug, a non-http link, too many links and unknown fields, each with its message", () => {
    const refused = checkAuthorInput({
      name: "م",
      slug: "a b/c",
      links: [
        { label: "X", url: "javascript:alert(1)" },
        { label: "", url: "https://example.org" },
      ],
      photo_url: "data:image/png;base64,AAAA",
      role: "admin",
    });
    expect(refused).toEqual({
      ok: false,
      fields: {
        name: "authors.v.name",
        slug: "authors.v.slug",
        "links.0.url": "authors.v.linkUrl",
        "links.1.label": "authors.v.linkLabel",
        photo_url: "authors.v.photo",
        role: "authors.v.unknownField",
      },
    });
    const many = Array.from({ length: 6 }, (_, i) => ({ label: `l${i}`, url: `https://e${i}.org` }));
    expect(checkAuthorInput({ name: "أحمد", links: many })).toEqual({ ok: false, fields: { links: "authors.v.linksMax" } });
    expect(checkAuthorInput({ name: "أحمد", links: "https://e.org" })).toEqual({ ok: false, fields: { links: "authors.v.links" } });
  });

  it("keeps http(s) links, drops empty rows, and changes only what a partial input sends", () => {
    const checked = checkAuthorInput(
      {
        links: [
          { label: "الموقع", url: "https://example.org/me" },
          { label: "", url: "" },
        ],
        user_id: "",
      },
      { partial: true },
    );
    expect(checked).toEqual({ ok: true, value: { links: [{ label: "الموقع", url: "https://example.org/me" }], user_id: null } });
  });
});
