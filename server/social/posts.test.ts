import { describe, expect, it } from "vitest";
import { toSocialPost } from "./posts.server.ts";

const image = (url: unknown) => (typeof url === "string" ? `/social/image/${url.length}` : null);

describe("a Graph post made ready for a page", () => {
  it("keeps the spec's fields, normalised", () => {
    const post = toSocialPost(
      {
        id: "1_2",
        message: "سطر أول\r\nLigne deux\u0007",
        created_time: "2024-05-20T10:00:00+0000",
        permalink_url: "https://www.facebook.com/1/posts/2",
        full_picture: "https://scontent.xx.fbcdn.net/v/t1/a.jpg?oh=1",
        from: { name: "Sahara Média", id: "1" },
      },
      image,
    );
    expect(post).toEqual({
      id: "1_2",
      message: "سطر أول\nLigne deux",
      createdTime: "2024-05-20T10:00:00.000Z",
      permalinkUrl: "https://www.facebook.com/1/posts/2",
      imageUrl: "/social/image/45",
      link: null,
      authorName: "Sahara Média",
    });
  });

  it("takes the picture from an attachment when there is no full picture", () => {
    const post = toSocialPost({ id: "1_3", attachments: { data: [{ media: { image: { src: "https://x.fbcdn.net/b.jpg" } } }] } }, image);
    expect(post?.imageUrl).toBe("/social/image/25");
    expect(post?.message).toBe("");
  });

  it("unwraps Facebook's link shim and refuses links that are not http(s) or permalinks off Facebook", () => {
    const post = toSocialPost(
      {
        id: "1_4",
        permalink_url: "javascript:alert(1)",
        attachments: { data: [{ type: "share", title: "Programme", url: "https://l.facebook.com/l.php?u=https%3A%2F%2Fsahara-media.mr%2Fp&h=AT" }] },
      },
      image,
    );
    expect(post?.permalinkUrl).toBeNull();
    expect(post?.link).toEqual({ url: "https://sahara-media.mr/p", title: "Programme", host: "sahara-media.mr" });
    expect(toSocialPost({ id: "1_5", permalink_url: "https://evil.example/1_5" }, image)?.permalinkUrl).toBeNull();
    expect(toSocialPost({ id: "1_6", attachments: { data: [{ type: "share", unshimmed_url: "javascript:alert(1)" }] } }, image)?.link).toBeNull();
  });

  it("drops entries without a usable id", () => {
    expect(toSocialPost({ message: "x" }, image)).toBeNull();
    expect(toSocialPost({ id: "<b>" }, image)).toBeNull();
  });
});
