/**
 * Test data for the newsroom's save (server/content/newsroom/write.server.ts): one valid item of each content type.
 */
import type { ContentType } from "#domain/content-types/index.ts";

const body = "<p>نص الخبر الكامل الذي يتجاوز عشرين حرفًا بكثير.</p>";

/** A valid item of each type, with the category filled in per database; `title` defaults to one naming the type. */
export function validInput(type: ContentType, categoryId: number, title = `عنوان ${type} تجريبي`): Record<string, unknown> {
  const base = { title, status: "published" };
  switch (type) {
    case "article":
      return { ...base, excerpt: "مقتطف المقال التجريبي", content: body, category_id: String(categoryId) };
    case "news":
      return { ...base, excerpt: "مقتطف الخبر التجريبي", content: body, category_id: categoryId, priority: "high", location: "نواكشوط" };
    case "coverage":
      return {
        ...base,
        excerpt: "مقتطف التغطية",
        content: body,
        coverage_type: "live",
        event_location: "أطار",
        event_date: "2026-11-20",
        reporter_name: "سيدي",
      };
    case "podcast":
      return { ...base, description: "وصف الحلقة", host_name: "مريم", episode_number: "3" };
    case "program":
      return { ...base, description: "وصف البرنامج الذي يتجاوز عشرين حرفًا", program_type: "documentary", host_name: "أحمد" };
    case "media":
      return { ...base, description: "وصف مقطع الوسائط", category_id: categoryId, media_type: "video", file_url: "/uploads/media/clip.mp4" };
  }
}
