CREATE TABLE "content_views" (
	"content_type" text NOT NULL,
	"content_id" integer NOT NULL,
	"reader_key" text NOT NULL,
	"day" date NOT NULL,
	CONSTRAINT "content_views_content_type_content_id_reader_key_day_pk" PRIMARY KEY("content_type","content_id","reader_key","day")
);
