CREATE TABLE "class_series" (
	"class_series_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "class_series_class_series_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"slots" jsonb NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "single_class" ADD COLUMN "class_series_id" integer;--> statement-breakpoint
ALTER TABLE "single_class" ADD CONSTRAINT "single_class_class_series_id_class_series_class_series_id_fk" FOREIGN KEY ("class_series_id") REFERENCES "public"."class_series"("class_series_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "single_class_series_date_idx" ON "single_class" USING btree ("class_series_id","class_date");