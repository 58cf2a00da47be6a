-- Decision 094: a class type's colour on a schedule (the previous panel paints each class with it, white text
-- on top), '#RRGGBB'. Existing types get a dark grey, on which that text reads, until the studio picks one.
ALTER TABLE "class_type" ADD COLUMN "color" text DEFAULT '#495057' NOT NULL;--> statement-breakpoint
ALTER TABLE "class_type" ADD CONSTRAINT "class_type_color_check" CHECK ("class_type"."color" ~ '^#[0-9a-fA-F]{6}$');