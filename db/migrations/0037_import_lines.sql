-- Lines of other systems' exports already imported, so a second run makes nothing twice (decision 127).
CREATE TABLE "import_line" (
	"import_line_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "import_line_import_line_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"entity_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "import_line_kind_key_key" ON "import_line" USING btree ("kind","key");