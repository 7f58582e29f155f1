-- The media library (decision 0120): one row per uploaded image, audio file and PDF, keyed by the public
-- address the content columns store, with its alt text, caption and credit in Arabic and French and its focal
-- point. search_text is the folded text the library's search reads (domain/arabic.ts); the application fills
-- it (null until then, as for the rows backfilled below).
CREATE TABLE "library_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"kind" text NOT NULL,
	"mime" text,
	"bytes" bigint,
	"width" integer,
	"height" integer,
	"original_name" text DEFAULT '' NOT NULL,
	"alt_ar" text DEFAULT '' NOT NULL,
	"alt_fr" text DEFAULT '' NOT NULL,
	"caption_ar" text DEFAULT '' NOT NULL,
	"caption_fr" text DEFAULT '' NOT NULL,
	"credit_ar" text DEFAULT '' NOT NULL,
	"credit_fr" text DEFAULT '' NOT NULL,
	"focal_x" real DEFAULT 0.5 NOT NULL,
	"focal_y" real DEFAULT 0.5 NOT NULL,
	"uploaded_by" text,
	"search_text" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "library_files_kind_check" CHECK ("kind" IN ('image', 'audio', 'document')),
	CONSTRAINT "library_files_focal_check" CHECK ("focal_x" BETWEEN 0 AND 1 AND "focal_y" BETWEEN 0 AND 1)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "library_files_url_unique" ON "library_files" USING btree ("url");
--> statement-breakpoint
CREATE INDEX "library_files_kind_created_idx" ON "library_files" USING btree ("kind","created_at" DESC NULLS LAST);
--> statement-breakpoint
CREATE INDEX "library_files_created_idx" ON "library_files" USING btree ("created_at" DESC NULLS LAST);
--> statement-breakpoint
-- Every file the content already uses: image columns, audio and media files (not videos, which the video library
-- keeps), pictures inside rich-text bodies. Type from the extension, size from a sized image's name
-- (`….1600x900.jpg`, decision 0104); the oldest use dates the row.
WITH used(url, kind, created_at) AS (
	SELECT image_url, 'image', created_at FROM articles
	UNION ALL SELECT author_image_url, 'image', created_at FROM articles
	UNION ALL SELECT image_url, 'image', created_at FROM news
	UNION ALL SELECT image_url, 'image', created_at FROM coverages
	UNION ALL SELECT image_url, 'image', created_at FROM podcasts
	UNION ALL SELECT audio_url, 'audio', created_at FROM podcasts
	UNION ALL SELECT image_url, 'image', created_at FROM programs
	UNION ALL SELECT image_url, 'image', created_at FROM media
	UNION ALL SELECT thumbnail_url, 'image', created_at FROM media
	UNION ALL SELECT file_url, media_type, created_at FROM media WHERE media_type IN ('image', 'audio', 'document')
	UNION ALL SELECT (regexp_matches(content, '<img[^>]*\ssrc="([^"]+)"', 'g'))[1], 'image', created_at FROM articles
	UNION ALL SELECT (regexp_matches(content_fr, '<img[^>]*\ssrc="([^"]+)"', 'g'))[1], 'image', created_at FROM articles WHERE content_fr IS NOT NULL
	UNION ALL SELECT (regexp_matches(content, '<img[^>]*\ssrc="([^"]+)"', 'g'))[1], 'image', created_at FROM news
	UNION ALL SELECT (regexp_matches(content_fr, '<img[^>]*\ssrc="([^"]+)"', 'g'))[1], 'image', created_at FROM news WHERE content_fr IS NOT NULL
	UNION ALL SELECT (regexp_matches(content, '<img[^>]*\ssrc="([^"]+)"', 'g'))[1], 'image', created_at FROM coverages
	UNION ALL SELECT (regexp_matches(content, '<img[^>]*\ssrc="([^"]+)"', 'g'))[1], 'image', created_at FROM podcasts WHERE content IS NOT NULL
	UNION ALL SELECT (regexp_matches(content, '<img[^>]*\ssrc="([^"]+)"', 'g'))[1], 'image', created_at FROM programs WHERE content IS NOT NULL
),
files AS (
	SELECT DISTINCT ON (url) url, kind, created_at, lower(substring(url from '\.([A-Za-z0-9]+)$')) AS ext
	FROM used
	WHERE url IS NOT NULL AND url ~ '^(/|https?://)' AND length(url) <= 2048
	ORDER BY url, created_at
)
INSERT INTO "library_files" ("url", "kind", "mime", "width", "height", "original_name", "created_at", "updated_at")
SELECT url, kind,
	CASE ext WHEN 'jpg' THEN 'image/jpeg' WHEN 'jpeg' THEN 'image/jpeg' WHEN 'png' THEN 'image/png' WHEN 'gif' THEN 'image/gif'
		WHEN 'webp' THEN 'image/webp' WHEN 'avif' THEN 'image/avif' WHEN 'svg' THEN 'image/svg+xml' WHEN 'mp3' THEN 'audio/mpeg'
		WHEN 'wav' THEN 'audio/wav' WHEN 'm4a' THEN 'audio/mp4' WHEN 'ogg' THEN 'audio/ogg' WHEN 'flac' THEN 'audio/flac'
		WHEN 'pdf' THEN 'application/pdf' ELSE NULL END,
	(substring(url from '\.(\d{1,5})x\d{1,5}\.[A-Za-z0-9]+$'))::integer,
	(substring(url from '\.\d{1,5}x(\d{1,5})\.[A-Za-z0-9]+$'))::integer,
	regexp_replace(regexp_replace(url, '[?#].*$', ''), '^.*/', ''),
	created_at, created_at
FROM files
ON CONFLICT ("url") DO NOTHING;
